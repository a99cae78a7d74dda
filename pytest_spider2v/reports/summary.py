"""Run summaries: one property dict per task in, success rates overall and per group out.

The per-task dicts travel as ``report.user_properties`` (so they survive pytest-xdist and land in
``--junitxml``); everything here is plain data so the aggregation is testable without pytest.
The success rate is the mean score over tasks that finished with a score: errors and skips say
nothing about the agent, so they are listed separately instead of being counted as 0. Every
group also sums its tokens, cost and wall time (each task's, from its start to its end). A run
that replays an earlier one (``replay_of`` in its records) lists the tasks whose outcome changed. A run with
closed-form questions (InfiAgent-DABench) also gets the paper's accuracies over them
(:mod:`.closed_form`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from pytest_spider2v.reports.closed_form import closed_form_summary, format_closed_form, sub_answer_verdicts

#: name of the ``user_properties`` entry carrying a task's properties
PROPERTY = "spider2v"
#: task statuses that end a task (``running`` is the only other one a record can hold)
ENDED_STATUSES = ("passed", "failed", "error", "skipped")
#: how much of a task's detail (why it failed, errored or was skipped) travels with its properties
DETAIL_CHARS = 300
#: groupings shown in the summary, as (title, property name); a task counts for each related app
GROUPS = (
    ("app", "apps"), ("category", "category"), ("difficulty", "difficulty"), ("variant", "variant"),
    ("interface", "interface"),
)


def usage_totals(result: dict[str, Any]) -> tuple[int | None, float | None]:
    """Tokens and cost of a task: the record's totals, else the sum over its steps."""
    usages = [result["usage"]] if result.get("usage") else [s.get("usage") or {} for s in result.get("steps", [])]
    tokens = [t for t in (_tokens(u) for u in usages) if t is not None]
    costs = [float(u[k]) for u in usages for k in ("cost", "cost_usd") if isinstance(u.get(k), (int, float))]
    return (sum(tokens) if tokens else None, round(sum(costs), 6) if costs else None)


def _tokens(usage: dict[str, Any]) -> int | None:
    for key in ("total_tokens", "tokens"):
        if isinstance(usage.get(key), (int, float)):
            return int(usage[key])
    for pair in (("input_tokens", "output_tokens"), ("prompt_tokens", "completion_tokens")):
        parts = [usage[k] for k in pair if isinstance(usage.get(k), (int, float))]
        if parts:
            return int(sum(parts))
    return None


def task_properties(result: dict[str, Any]) -> dict[str, Any]:
    """The JSON-serialisable summary entry of one task record (its result.json content)."""
    tokens, cost = usage_totals(result)
    score = result.get("score")
    return {
        "nodeid": result.get("nodeid", ""),
        "task_id": result.get("task_id", ""),
        "app": result.get("app", ""),
        "apps": list(result.get("apps") or [result.get("app", "")]),
        "category": result.get("category", ""),
        "difficulty": result.get("difficulty", ""),
        "interface": result.get("interface", ""),
        "variant": result.get("variant", ""),
        "status": result.get("status", "error"),
        "score": float(score) if isinstance(score, (int, float)) else None,
        "tokens": tokens,
        "cost": cost,
        "seconds": _wall_seconds(result.get("timings") or {}),
        "detail": _first_line(str(result.get("detail") or ""))[:DETAIL_CHARS],
        #: the faults of the attempts an infrastructure fault ended (``--retries``), in order
        "retried": [_first_line(str(a.get("detail") or ""))[:DETAIL_CHARS] for a in result.get("attempts") or []],
        #: a task format's facets and each sub-answer's verdict, for tasks that have them
        **({"facets": result["facets"]} if result.get("facets") else {}),
        **({"sub_answers": verdicts} if (verdicts := sub_answer_verdicts(result.get("evaluation") or [])) else {}),
        #: how the replayed run ended the task, for a replay
        **({"recorded": {key: replayed.get(key) for key in ("run", "status", "score")}}
           if (replayed := result.get("replay_of")) else {}),
    }


def _wall_seconds(timings: dict[str, Any]) -> float | None:
    total = timings.get("total")
    return round(float(total), 3) if isinstance(total, (int, float)) else None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def is_scored(props: dict[str, Any]) -> bool:
    return props.get("status") in ("passed", "failed") and props.get("score") is not None


def summarize(entries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate task properties into overall and per-group figures (the ``summary.json`` content)."""
    tasks = sorted(entries, key=lambda p: p.get("nodeid", ""))
    summary = _figures(tasks)
    summary["errors"] = [p["nodeid"] for p in tasks if not is_scored(p) and p.get("status") != "skipped"]
    summary["skipped"] = [p["nodeid"] for p in tasks if p.get("status") == "skipped"]
    summary["retried"] = [p["nodeid"] for p in tasks if p.get("retried")]
    replayed = [p for p in tasks if p.get("recorded")]
    if replayed:
        summary["replay"] = {"runs": sorted({str(p["recorded"].get("run")) for p in replayed}), "tasks": len(replayed),
                             "changed": [_change(p) for p in replayed if outcome_of(p["recorded"]) != outcome_of(p)]}
    for title, key in GROUPS:
        groups: dict[str, list[dict[str, Any]]] = {}
        for props in tasks:
            values = props.get(key)
            for value in values if isinstance(values, list) else [values]:
                groups.setdefault(str(value or "?"), []).append(props)
        summary[f"by_{title}"] = {name: _figures(members) for name, members in sorted(groups.items())}
    closed_form = closed_form_summary([p for p in tasks if is_scored(p)])
    if closed_form is not None:
        summary["closed_form"] = closed_form
    summary["tasks"] = tasks
    return summary


def outcome_of(props: dict[str, Any]) -> str:
    """A task's outcome in a word: its score when it has one, else its status."""
    score = props.get("score")
    if props.get("status") in ("passed", "failed") and isinstance(score, (int, float)):
        return f"{score:.2f}"
    return str(props.get("status") or "error")


def _change(props: dict[str, Any]) -> dict[str, Any]:
    return {"nodeid": props["nodeid"], "recorded": outcome_of(props["recorded"]), "now": outcome_of(props)}


def _figures(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    scores = [p["score"] for p in tasks if is_scored(p)]
    skipped = sum(p.get("status") == "skipped" for p in tasks)
    return {
        "total": len(tasks),
        "scored": len(scores),
        "success_rate": round(sum(scores) / len(scores), 4) if scores else None,
        "passed": sum(p.get("status") == "passed" for p in tasks),
        "errors": len(tasks) - len(scores) - skipped,
        "skipped": skipped,
        "tokens": _sum([p.get("tokens") for p in tasks]),
        "cost": _sum([p.get("cost") for p in tasks], digits=6),
        "seconds": _sum([p.get("seconds") for p in tasks], digits=3),
    }


def _sum(values: Iterable[Any], digits: int | None = None) -> Any:
    """The sum of the numbers among ``values``; None when there are none (nothing was counted)."""
    numbers = [v for v in values if isinstance(v, (int, float))]
    if not numbers:
        return None
    return round(sum(numbers), digits) if digits is not None else sum(numbers)


def format_summary(summary: dict[str, Any]) -> list[str]:
    """The terminal text of a summary, one line per entry."""
    n_err, n_skip = len(summary["errors"]), len(summary["skipped"])
    lines = [
        f"{summary['total']} tasks: success rate {_rate(summary['success_rate'])} "
        f"(mean score over {summary['scored']} scored tasks; {n_err} errors and {n_skip} skipped "
        "are listed separately, not counted as 0)",
    ]
    extra = [f"passed {summary['passed']}"]
    if summary["tokens"] is not None:
        extra.append(f"tokens {summary['tokens']:,}")
    if summary["cost"] is not None:
        extra.append(f"cost ${summary['cost']:.4f}")
    if summary["seconds"] is not None:
        extra.append(f"wall time {wall_time(summary['seconds'])} (summed over tasks)")
    lines.append(", ".join(extra))
    spent = [column for column in ("tokens", "cost") if summary[column] is not None]
    for title, _ in GROUPS:
        groups = summary[f"by_{title}"]
        if not groups:
            continue
        width = max(len(title) + 3, *(len(name) for name in groups))
        lines.append("")
        lines.append(f"{'by ' + title:<{width}}  {'tasks':>5}  {'scored':>6}  {'success':>7}  {'passed':>6}  {'errors':>6}  "
                     f"{'skipped':>7}" + "".join(f"  {c:>10}" for c in spent) + f"  {'time':>8}")
        for name, f in groups.items():
            lines.append(
                f"{name:<{width}}  {f['total']:>5}  {f['scored']:>6}  {_rate(f['success_rate']):>7}  "
                f"{f['passed']:>6}  {f['errors']:>6}  {f['skipped']:>7}"
                + "".join(f"  {spending(c, f[c]):>10}" for c in spent) + f"  {wall_time(f['seconds']):>8}"
            )
    if summary.get("closed_form"):
        lines += format_closed_form(summary["closed_form"])
    if summary.get("replay"):
        lines += format_replay(summary["replay"])
    details = {p["nodeid"]: p.get("detail") or "" for p in summary["tasks"]}
    if summary["errors"]:
        lines += ["", f"errors (not counted): {n_err}"]
        lines += [f"  {nodeid}" + (f"  -- {details[nodeid]}" if details[nodeid] else "") for nodeid in summary["errors"]]
    if summary["retried"]:
        # a retry is no failure, but a machine that needs many is worth a look
        faults = {p["nodeid"]: p["retried"] for p in summary["tasks"] if p.get("retried")}
        lines += ["", f"started over after an environment fault (--retries): {len(summary['retried'])}"]
        lines += [f"  {nodeid}  -- {len(faults[nodeid])}x: {faults[nodeid][-1]}" for nodeid in summary["retried"]]
    if summary["skipped"]:
        # skips share a few reasons (no account settings, unavailable step); their first clause groups them
        reasons = Counter(details[nodeid].split(";")[0] or "no reason given" for nodeid in summary["skipped"])
        lines += ["", f"skipped (not counted): {n_skip}"]
        lines += [f"  {count:>4}  {reason}" for reason, count in reasons.most_common()]
    return lines


def format_replay(replay: dict[str, Any]) -> list[str]:
    """The tasks whose outcome differs from the replayed run's, old -> new."""
    changed = replay["changed"]
    head = f"replayed {replay['tasks']} tasks of {', '.join(replay['runs'])}: "
    if not changed:
        return ["", head + "every outcome as recorded"]
    lines = ["", head + f"{len(changed)} outcome{'s' if len(changed) != 1 else ''} changed (recorded -> now)"]
    return lines + [f"  {c['nodeid']}  {c['recorded']} -> {c['now']}" for c in changed]


def wall_time(seconds: float | None) -> str:
    """``1h02m``, ``3m05s``, ``12s``; ``-`` when nothing was timed."""
    if seconds is None:
        return "-"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def spending(column: str, value: Any) -> str:
    """A group's tokens or cost as the tables show them; ``-`` when it spent none it counted."""
    if value is None:
        return "-"
    return f"{value:,}" if column == "tokens" else f"${value:.4f}"


def _rate(rate: float | None) -> str:
    return "n/a" if rate is None else f"{rate:.1%}"
