"""One task record as an HTML fragment for pytest-html: instruction, outcome, evaluation and every
step, rendered from ``templates/task.html``.

The fragment is inserted into the report page as is; the template engine escapes every piece of
record text (agent replies, command output, task text), and settings whose names look secret are
never rendered: reports get shared, API keys must not travel with them. What is here prepares the
record for the template: the screenshots as embedded images, an action as code blocks, the timings.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from pytest_spider2v.reports.images import jpeg_data_uri
from pytest_spider2v.reports.rendering import render
from pytest_spider2v.reports.spending import cost_text, tokens_text
from pytest_spider2v.reports.task_summary import usage_totals
from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.records import public_settings
from pytest_spider2v.run.results import ObservationFiles, Step, TaskResult, TaskTimings

#: agent replies longer than this (characters or lines) are folded
FOLD_CHARS = 600
FOLD_LINES = 12
#: an action's lines longer than this are folded one by one (a module installed in one line, say
#: the oracle's solution helpers, would otherwise bury the code around it)
FOLD_LINE_CHARS = 300


def render_task(result: TaskResult, directory: Path, link_base: Path | None = None) -> str:
    """The HTML fragment of one task record; ``result`` is its result, ``directory`` its folder.

    Screenshots are embedded as downscaled JPEGs; each links to its full-size PNG, relative to
    ``link_base`` (the report's folder) when given, so the links keep working if the tree moves.
    """
    facts = [(name, value) for name, value in (("category", result.category), ("difficulty", result.difficulty),
                                               ("interface", result.interface), ("agent", result.agent)) if value]
    settings = public_settings(result.settings)
    return render(
        "task.html", result=result, facts=facts, timings=_timings(result.timings), usage=_usage(result),
        settings=json.dumps(settings, indent=1, ensure_ascii=False, default=str) if settings else "",
        web_steps=_web_steps(result), first=_first_observation(result, directory), screen=_has_screen(result, directory),
        files=RecordFiles(directory, link_base), no_observation=ObservationFiles(),
        action_text=_action_text, code_blocks=code_blocks, fold_chars=FOLD_CHARS, fold_lines=FOLD_LINES)


@dataclass(frozen=True)
class Image:
    """A screenshot as the report embeds it: ``uri`` (None when its file is missing) and the link
    to its full-size file."""

    name: str
    uri: str | None
    href: str


@dataclass(frozen=True)
class RecordFiles:
    """A record's files as the report shows them: linked relative to ``link_base``."""

    directory: Path
    link_base: Path | None

    def image(self, name: str) -> Image:
        path = self.directory / name
        return Image(path.name, jpeg_data_uri(path), relative_link(path, self.link_base))

    def link(self, name: str | None) -> str | None:
        """The link to a file of the record, None when there is none."""
        path = self.directory / (name or "")
        return relative_link(path, self.link_base) if name and path.is_file() else None


def _first_observation(result: TaskResult, directory: Path) -> ObservationFiles | None:
    """What the desktop showed before the first step, when its screenshot was kept."""
    first = result.initial_observation
    if first == ObservationFiles():  # a record from before the first observation was named
        first = ObservationFiles(screenshot="step_000.png")
    return first if first.screenshot and (directory / first.screenshot).is_file() else None


def _has_screen(result: TaskResult, directory: Path) -> bool:
    """Whether the steps get a screenshot column: an environment without a screen has none."""
    return (_first_observation(result, directory) is not None
            or any(s.observation is not None and s.observation.screenshot for s in result.steps))


def _web_steps(result: TaskResult) -> list[tuple[Step, JsonObject, list[object], list[object]]] | None:
    """A Mind2Web task's steps with the part of the evaluation that judged each (its targets and
    candidates); None for a task whose steps are not web steps."""
    judged = {int(p["step"]): p for m in result.evaluation for p in m.parts if "candidates" in p and "step" in p
              and isinstance(p["step"], int)}
    if not judged:
        return None
    return [(step, part, _listed(part.get("targets")), _listed(part.get("candidates")))
            for step in result.steps for part in [judged.get(step.index, {})]]


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _action_text(step: Step) -> str:
    """A step's action as text: its code, the answer a DONE carries, a computer_13 dict as JSON."""
    action = step.action
    if action is None or isinstance(action, str):
        return action or ""
    if step.kind == "DONE" and action.get("answer") is not None:
        return str(action["answer"])
    return json.dumps(action, indent=1, ensure_ascii=False, default=str)


def code_blocks(text: str) -> list[tuple[bool, str]]:
    """``text`` as preformatted blocks ``(overlong, text)``: each line longer than
    ``FOLD_LINE_CHARS`` a block of its own (folded under its first characters), so the lines
    around it stay readable."""
    blocks: list[tuple[bool, str]] = []
    plain: list[str] = []
    for line in text.splitlines():
        if len(line) <= FOLD_LINE_CHARS:
            plain.append(line)
            continue
        if plain:
            blocks.append((False, "\n".join(plain)))
            plain = []
        blocks.append((True, line))
    if plain or not blocks:
        blocks.append((False, "\n".join(plain)))
    return blocks


def _timings(timings: TaskTimings) -> list[tuple[str, str]]:
    rows = []
    for name, value in timings.to_json().items():
        if not isinstance(value, (int, float)):
            continue
        if name in ("started", "finished"):
            rows.append((name, datetime.fromtimestamp(value).isoformat(sep=" ", timespec="seconds")))
        else:
            rows.append((name, f"{value:.2f} s"))
    return rows


def _usage(result: TaskResult) -> list[tuple[str, str]]:
    tokens, cost = usage_totals(result)
    return [(name, text) for name, value, text in (("tokens", tokens, tokens_text(tokens)),
                                                   ("cost", cost, cost_text(cost))) if value is not None]


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
