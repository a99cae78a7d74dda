"""Where the time went: a task's wall time split into the parts of its life, and those summed
per run and per app, so a user sees what the benchmark itself costs beside the model.

The parts, from the record's timings (retried attempts' phases included):

- ``reset``: restoring the snapshot, a fresh environment until its desktop answers;
- ``setup``: the task's setup steps, then the first observation;
- ``thinking``: the agent's turns, from the observation sent to the reply read (the model's time);
- ``actions``: running the actions in the environment;
- ``observations``: the screenshots and trees taken after them;
- ``evaluation``: the getters, the metrics and the tamper checks around them;
- ``other``: the rest of the wall time: the pause after each action, writing the record, the
  release of the environment.

The harness's share of an episode is everything but ``thinking``: the cost of running an agent
here, which a faster machine or a leaner harness reduces and a faster model does not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.results import TaskResult

TIME_PARTS = ("reset", "setup", "thinking", "actions", "observations", "evaluation", "other")


def time_parts(result: TaskResult) -> dict[str, float]:
    """A task's seconds per part of :data:`TIME_PARTS`; empty for a task that never started."""
    total = result.timings.total
    if total is None:
        return {}
    phases = [result.timings.phases, *(attempt.timings for attempt in result.attempts)]
    restore = sum(p.get("restore", 0.0) for p in phases)
    setup = sum(p.get("setup", 0.0) for p in phases)
    # the reset phase holds restore and setup and the first observation after them
    first_look = max(0.0, result.timings.phases.get("reset", 0.0) - result.timings.phases.get("restore", 0.0)
                     - result.timings.phases.get("setup", 0.0))
    parts = {
        "reset": restore,
        "setup": setup + first_look,
        "thinking": sum(step.think for step in result.steps),
        "actions": sum(step.timings.execute for step in result.steps if step.timings),
        "observations": sum(sum(step.timings.observe.values()) for step in result.steps if step.timings),
        "evaluation": sum(p.get("evaluation", 0.0) for p in phases),
    }
    parts["other"] = max(0.0, total - sum(parts.values()))
    return {name: round(float(seconds), 3) for name, seconds in parts.items()}


@dataclass(frozen=True)
class TimeSplit:
    """Seconds per part, summed over some tasks."""

    seconds: dict[str, float]

    @classmethod
    def of(cls, tasks: Iterable[Mapping[str, float]]) -> TimeSplit:
        summed = dict.fromkeys(TIME_PARTS, 0.0)
        for parts in tasks:
            for name in TIME_PARTS:
                summed[name] += parts.get(name, 0.0)
        return cls({name: round(value, 3) for name, value in summed.items()})

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    @property
    def harness_share(self) -> float | None:
        """The share of the wall time that is not the model's: None when nothing was timed."""
        return round(1 - self.seconds["thinking"] / self.total, 4) if self.total > 0 else None

    def to_json(self) -> JsonObject:
        return {**self.seconds, "total": round(self.total, 3), "harness_share": self.harness_share}


def format_time_split(overall: TimeSplit, by_app: Mapping[str, TimeSplit]) -> list[str]:
    """The table of where the time went, the run first, then each app; shares of each row's total."""
    if overall.total <= 0:
        return []
    width = max(len("run"), *(len(name) for name in by_app))
    lines = ["", "where the time went (share of the wall time summed over tasks; harness = all but thinking)",
             f"{'':<{width}}  {'total':>8}" + "".join(f"  {name:>12}" for name in TIME_PARTS) + f"  {'harness':>7}"]
    for name, split in [("run", overall), *by_app.items()]:
        if split.total <= 0:
            continue
        shares = "".join(f"  {split.seconds[part] / split.total:>12.1%}" for part in TIME_PARTS)
        lines.append(f"{name:<{width}}  {wall_time(split.total):>8}{shares}  {split.harness_share or 0:>7.1%}")
    return lines


def wall_time(seconds: float | None) -> str:
    """``1h02m``, ``3m05s``, ``12s``; ``-`` when nothing was timed."""
    if seconds is None:
        return "-"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
