"""One task record as an HTML fragment for pytest-html: instruction, outcome, evaluation and every step.

The fragment is inserted into the report page as is, so every piece of record text (agent replies,
command output, task text) is escaped, and settings whose names look secret are never rendered:
reports get shared, API keys must not travel with them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from datetime import datetime
from html import escape
from pathlib import Path
from urllib.parse import quote

from pytest_spider2v.reports.images import jpeg_data_uri
from pytest_spider2v.reports.task_summary import usage_totals
from pytest_spider2v.run.agent import ExecutionInfo
from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.records import public_settings
from pytest_spider2v.run.results import Attempt, MetricResult, ObservationFiles, Step, TaskResult, TaskTimings

#: agent replies longer than this (characters or lines) are folded
FOLD_CHARS = 600
FOLD_LINES = 12
#: an action's lines longer than this are folded one by one (a module installed in one line, say
#: the oracle's solution helpers, would otherwise bury the code around it)
FOLD_LINE_CHARS = 300

STYLE = """<style>
.s2v{font-size:13px}.s2v table{border-collapse:collapse;margin:4px 0 12px}
.s2v td,.s2v th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}
.s2v pre{white-space:pre-wrap;word-break:break-word;margin:0;max-height:480px;overflow:auto}
.s2v .err{background:#fde2e2;color:#a00}.s2v .ok{color:#080}.s2v .kind{font-weight:bold;color:#06c}
.s2v .shot img{max-width:640px;width:100%;border:1px solid #999}.s2v h3{margin:8px 0 4px}
.s2v .status-passed{color:#080}.s2v .status-failed{color:#a00}.s2v .status-error{color:#a60}
</style>"""


def render_task(result: TaskResult, directory: Path, link_base: Path | None = None) -> str:
    """The HTML fragment of one task record; ``result`` is its result, ``directory`` its folder.

    Screenshots are embedded as downscaled JPEGs; each links to its full-size PNG, relative to
    ``link_base`` (the report's folder) when given, so the links keep working if the tree moves.
    """
    parts = [STYLE, '<div class="s2v">', _header(result)]
    if result.flags:  # what a reader of the score must know first: a known defect, a broken environment
        items = "".join(f"<li><b>{_e(flag.kind)}</b>: {_e(flag.reason)}</li>" for flag in result.flags)
        parts.append(_section("Flags", f"<ul>{items}</ul>"))
    parts.append(_section("Instruction", f"<pre>{_e(result.instruction)}</pre>"))
    if result.stop_reason:
        parts.append(_section("Episode ended", f"<p>{_e(result.stop_reason)}</p>"))
    if result.detail:
        parts.append(_section("Detail", f"<pre>{_e(result.detail)}</pre>"))
    parts.append(_charge_and_integrity(result))
    if result.answer is not None:
        parts.append(_section("Answer", f"<pre>{_e(result.answer)}</pre>"))
    parts.append(_evaluation(result.evaluation))
    parts.append(_watching(result))
    parts.append(_attempts(result.attempts))
    parts.append(_timings(result.timings))
    parts.append(_usage(result))
    parts.append(_settings(result.settings))
    parts.append(_steps(result, directory, link_base))
    parts.append("</div>")
    return "".join(p for p in parts if p)


def _charge_and_integrity(result: TaskResult) -> str:
    """Whom an outcome other than a pass is charged to and on what evidence, and what the tamper
    checks of the evaluation found (or why there were none)."""
    rows = []
    charge = result.charge
    if charge is not None:
        evidence = "".join(f"<li>{_e(item)}</li>" for item in charge.evidence)
        rows.append(["charged to", f"<b>{_e(charge.party)}</b>: {_e(charge.cause)}"
                                   + (f"<ul>{evidence}</ul>" if evidence else "")])
    check = result.integrity
    if check is not None and not check.checked:
        rows.append(["tamper checks", f"none: {_e(check.reason)}"])
    elif check is not None:
        found = ("".join(f'<li class="err">{_e(finding)}</li>' for finding in check.findings)
                 if check.findings else '<li class="ok">nothing tampered with</li>')
        rows.append(["tamper checks", f"<ul>{found}</ul>{check.seconds:.2f} s"])
        if check.left_running:
            rows.append(["left running by the agent", "<ul>" + "".join(f"<li><code>{_e(command)}</code></li>"
                                                                        for command in check.left_running) + "</ul>"])
    return _section("Charge and integrity", _table(["", ""], rows)) if rows else ""


def _watching(result: TaskResult) -> str:
    """Where the desktop could be watched while the task ran, and its video (played in the
    report's media panel), or why there was none."""
    rows = []
    live = result.live_view
    if live is not None and live.url:
        mode = "view-only" if live.view_only else "input enabled"
        page = f' &middot; agent\'s page <a href="{escape(live.page)}">{_e(live.page)}</a>' if live.page else ""
        rows.append(["live view", f'<a href="{escape(live.url)}">{_e(live.url)}</a> ({mode}, while it ran){page}'])
    elif live is not None and live.error:
        rows.append(["live view", f'<span class="err">none: {_e(live.error)}</span>'])
    video = result.video
    if video is not None and video.file:
        length = f", {video.seconds:.1f} s" if video.seconds is not None else ""
        problem = f'<pre class="err">{_e(video.problem)}</pre>' if video.problem else ""
        rows.append(["video", f"{_e(video.file)}{_e(length)} (in the media panel){problem}"])
    elif video is not None and video.error:
        rows.append(["video", f'<span class="err">none: {_e(video.error)}</span>'])
    return _section("Watching", _table(["", ""], rows)) if rows else ""


def _attempts(attempts: list[Attempt]) -> str:
    """Earlier attempts that an infrastructure fault ended (``--retries``): what went wrong, and
    the folder holding their steps."""
    if not attempts:
        return ""
    rows = [[_e(a.number), _e(a.step_count), _e(a.folder), f"<pre>{_e(a.detail)}</pre>"] for a in attempts]
    return _section("Retried attempts", _table(["attempt", "steps", "record folder", "fault"], rows))


def _e(value: object) -> str:
    return escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str))


def _section(title: str, body: str) -> str:
    return f"<h3>{escape(title)}</h3>{body}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _header(result: TaskResult) -> str:
    label = f"{result.app}/{result.task_id} [{result.variant}]"
    facts = ", ".join(
        f"{name} {_e(value)}"
        for name, value in (("category", result.category), ("difficulty", result.difficulty),
                            ("interface", result.interface), ("agent", result.agent))
        if value
    )
    return (
        f"<h3>{_e(label)}</h3><p><b>Status</b> <span class=\"status-{_e(result.status)}\">{_e(result.status)}</span>"
        f" &middot; <b>Score</b> {'&ndash;' if result.score is None else _e(result.score)}"
        f"{' &middot; ' + facts if facts else ''}</p>"
    )


def _evaluation(evaluation: list[MetricResult]) -> str:
    if not evaluation:
        return ""
    rows = [[_e(m.func), _e(m.score), f"<pre>{_e(m.detail)}</pre>" + _parts(m.parts)] for m in evaluation]
    return _section("Evaluation", _table(["metric", "score", "detail"], rows))


def _parts(judged: tuple[JsonObject, ...]) -> str:
    """The verdict on each part a metric judged (a closed-form question's sub-answers)."""
    parts = [p for p in judged if "correct" in p]
    if not parts:
        return ""
    rows = [[_e(p.get("name", "")), _e(p.get("expected", "")),
             "&ndash;" if p.get("given") is None else _e(p["given"]),
             '<span class="ok">right</span>' if p["correct"] else '<span class="err">wrong</span>'] for p in parts]
    return _table(["sub-answer", "expected", "given", "verdict"], rows)


def _timings(timings: TaskTimings) -> str:
    rows = []
    for name, value in timings.to_json().items():
        if not isinstance(value, (int, float)):
            continue
        if name in ("started", "finished"):
            text = datetime.fromtimestamp(value).isoformat(sep=" ", timespec="seconds")
        else:
            text = f"{value:.2f} s"
        rows.append([_e(name), _e(text)])
    return _section("Timings", _table(["phase", "time"], rows)) if rows else ""


def _usage(result: TaskResult) -> str:
    tokens, cost = usage_totals(result)
    if tokens is None and cost is None:
        return ""
    rows = [["tokens", _e(f"{tokens:,}")]] if tokens is not None else []
    if cost is not None:
        rows.append(["cost", _e(f"${cost:.4f}")])
    return _section("Usage", _table(["", "total"], rows))


def _settings(settings: Mapping[str, object]) -> str:
    visible = public_settings(settings)
    if not visible:
        return ""
    return _section("Settings", f"<pre>{_e(json.dumps(visible, indent=1, ensure_ascii=False, default=str))}</pre>")


def _steps(result: TaskResult, directory: Path, link_base: Path | None) -> str:
    """One row per step: reply, action, its result and (for an environment with a screen) the
    screenshot after it; an environment without one gets no screenshot column. A web task's
    steps are shown as pages with their candidates instead (:func:`_web_steps`)."""
    judged = {int(p["step"]): p for m in result.evaluation for p in m.parts if "candidates" in p and "step" in p
              and isinstance(p["step"], int)}
    if judged:
        return _web_steps(result, judged, directory, link_base)
    rows = []
    steps = result.steps
    first = result.initial_observation
    if first == ObservationFiles():  # a record from before the first observation was named
        first = ObservationFiles(screenshot="step_000.png")
    if (directory / (first.screenshot or "")).is_file():
        rows.append(["0", "&ndash;", "<i>initial observation</i>", "&ndash;", _observation(first, directory, link_base)])
    screen = bool(rows) or any(s.observation is not None and s.observation.screenshot for s in steps)
    for step in steps:
        rows.append([
            _e(step.index) + f"<br><small>{step.duration:.1f} s</small>",
            _reply(step.response) + _view(step, directory, link_base),
            _action(step),
            _info(step.info),
            *([_observation(step.observation or ObservationFiles(), directory, link_base)] if screen else []),
        ])
    if not rows:
        return _section("Steps", "<p><i>no steps recorded</i></p>")
    header = ["#", "agent reply", "action", "result", *(["screenshot after the step"] if screen else [])]
    return _section(f"Steps ({len(steps)})", _table(header, rows))


def _web_steps(result: TaskResult, judged: dict[int, JsonObject], directory: Path, link_base: Path | None) -> str:
    """A Mind2Web task's steps: the page before the action, the candidates offered (the target
    marked ✔, the agent's choice ➜), the answer and the step's verdicts."""
    rows = []
    for step in result.steps:
        part = judged.get(step.index, {})
        targets = _listed(part.get("targets"))
        candidates = _listed(part.get("candidates"))
        items = "".join(
            f'<li class="{"ok" if i in targets else ""}">'
            f'{"➜ " if part.get("chosen") == i else ""}{"✔ " if i in targets else ""}<code>{_e(candidate)}</code></li>'
            for i, candidate in enumerate(candidates))
        if part.get("chosen") is None and part.get("valid") and not part.get("problem"):
            items += "<li>➜ none of them</li>"
        verdict = ("<i>invalid step: not scored</i>" if not part.get("valid") else
                   f'element <span class="{"ok" if part.get("element") else "err"}">'
                   f'{"right" if part.get("element") else "wrong"}</span>, operation F1 {_e(part.get("op_f1"))}, '
                   f'<b class="{"ok" if part.get("success") else "err"}">'
                   f'{"success" if part.get("success") else "failure"}</b>')
        given = ("<i>not asked</i>" if not part.get("valid")
                 else f'<span class="err">{_e(part["problem"])}</span>' if part.get("problem")
                 else _e(f"{part.get('chosen_name') or 'none'}: {part.get('op', '')} {part.get('value', '')}"))
        wanted = _e(f"{part.get('target_op', '')} {part.get('target_value', '')}")
        rows.append([
            _e(step.index),
            _observation(step.observation or ObservationFiles(), directory, link_base),
            f"<ol type=A>{items}</ol>",  # A, B, ..., Z, AA: the choices' names
            _reply(step.response) + f"<p>parsed: {given}<br>target: {wanted}</p>" + _info(step.info),
            verdict,
        ])
    if not rows:
        return _section("Steps", "<p><i>no steps recorded</i></p>")
    return _section(f"Steps ({len(rows)})", _table(["#", "page", "candidates (✔ target, ➜ chosen)", "answer", "verdict"],
                                                   rows))


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _view(step: Step, directory: Path, link_base: Path | None) -> str:
    """The image the model was shown this turn (Set-of-Marks, scaled), when it was not the raw screen."""
    if not step.view:
        return ""
    return "<small>what the model saw:</small>" + _screenshot(directory / step.view, link_base)


def _reply(text: str) -> str:
    if not text:
        return "&ndash;"
    lines = text.splitlines()
    if len(text) <= FOLD_CHARS and len(lines) <= FOLD_LINES:
        return f"<pre>{_e(text)}</pre>"
    return _folded(_e(lines[0][:120] if lines else ""), text)


def _folded(summary: str, text: str) -> str:
    """``text`` folded under ``summary`` (HTML) and its length."""
    return f"<details><summary>{summary} &hellip; ({len(text)} chars)</summary><pre>{_e(text)}</pre></details>"


def _action(step: Step) -> str:
    action, kind = step.action, step.kind
    if action is None or isinstance(action, str):
        text = action or ""
    elif kind == "DONE" and action.get("answer") is not None:  # DONE carrying the final answer
        text = str(action["answer"])
    else:  # a computer_13 dict
        text = json.dumps(action, indent=1, ensure_ascii=False, default=str)
    label = "no action" if kind == "none" else kind
    badge = f'<span class="kind">{_e(label)}</span>' if kind and kind != "code" else ""
    return badge + (_code(text) if text and text != kind else "")


def _code(text: str) -> str:
    """``text`` as preformatted blocks, each line longer than ``FOLD_LINE_CHARS`` folded on its own
    under its first characters, so the lines around it stay readable."""
    blocks: list[str] = []
    plain: list[str] = []
    for line in text.splitlines():
        if len(line) <= FOLD_LINE_CHARS:
            plain.append(line)
            continue
        if plain:
            blocks.append(_pre(plain))
            plain = []
        blocks.append(_folded(f"<code>{_e(line[:120])}</code>", line))
    if plain or not blocks:
        blocks.append(_pre(plain))
    return "".join(blocks)


def _pre(lines: list[str]) -> str:
    return "<pre>" + _e("\n".join(lines)) + "</pre>"


def _info(info: ExecutionInfo) -> str:
    if not info:
        return "&ndash;"
    status = info.get("status", "")
    returncode = info.get("returncode")
    failed = status == "error" or returncode not in (None, 0)
    rc = f" (rc {_e(returncode)})" if returncode not in (None, 0) else ""
    parts = [f'<span class="{"err" if failed else "ok"}">{_e(status or ("error" if failed else "ok"))}{rc}</span>']
    if info.get("output"):
        parts.append(f"<pre>{_e(info.get('output'))}</pre>")
    for message in (info.get("error"), info.get("message")):
        if message:
            parts.append(f'<pre class="err">{_e(message)}</pre>')
    return "".join(parts)


def _observation(files: ObservationFiles, directory: Path, link_base: Path | None) -> str:
    """The screenshot after a step, plus a link to the accessibility tree when one was observed."""
    html = _screenshot(directory / files.screenshot, link_base) if files.screenshot else "<i>no screenshot</i>"
    tree = files.accessibility_tree
    if tree and (directory / tree).is_file():
        html += f'<a href="{escape(relative_link(directory / tree, link_base))}" target="_blank">accessibility tree</a>'
    return html


def _screenshot(path: Path, link_base: Path | None) -> str:
    uri = jpeg_data_uri(path)
    if uri is None:
        return f"<i>missing {_e(path.name)}</i>"
    href = relative_link(path, link_base)
    return f'<div class="shot"><a href="{escape(href)}" target="_blank"><img src="{uri}" alt="{_e(path.name)}" loading="lazy"></a></div>'


def relative_link(path: Path, base: Path | None) -> str:
    """A link to a record's file (a full-size screenshot, a video): relative to the report when
    possible, else a file URI."""
    path = path.resolve()
    if base is not None:
        try:
            return quote(Path(os.path.relpath(path, base.resolve())).as_posix())
        except ValueError:  # different drive on Windows
            pass
    return path.as_uri()
