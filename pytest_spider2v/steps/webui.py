"""The ``actions`` parameter of the web-UI setup steps, in every shape the original configs use.

The original's ``*_webui_init`` steps take a list of actions, each a dict with ``type`` and the
action's own parameters (``{"type": "login", "username": "admin", "password": "admin"}``);
this project's own tasks also write a bare name (``"login"``). Each step knows its action
names and parameters; this module only turns the parameter into :class:`Action` values and
rejects, naming the step, what no step could run.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_spider2v.run.task_helpers import StepError


@dataclass(frozen=True)
class Action:
    """One action of a web-UI step: its name and its own parameters."""

    type: str
    params: dict[str, Any] = field(default_factory=dict)


def parse_actions(
    step: str,
    actions: Any,
    known: Collection[str],
    unsupported: Mapping[str, str] | None = None,
    params: Mapping[str, Collection[str]] | None = None,
) -> list[Action]:
    """``actions`` as a list of :class:`Action`, in order.

    Accepted: nothing (``None``), one action or a list of them; an action is a name or a dict
    with a ``type`` string. ``unsupported`` maps names the original knows but this project
    cannot run to the reason; ``params`` (when given for a name) lists the parameters that
    action takes, so that a misspelt one fails here rather than being ignored.
    """
    if actions is None:
        return []
    if isinstance(actions, (str, dict)):
        actions = [actions]
    if not isinstance(actions, (list, tuple)):
        raise StepError(f"{step}: actions must be a list, got {type(actions).__name__}")
    parsed = []
    for item in actions:
        if isinstance(item, str):
            kind, values = item, {}
        elif isinstance(item, dict) and isinstance(item.get("type"), str):
            kind, values = item["type"], {k: v for k, v in item.items() if k != "type"}
        else:
            raise StepError(f"{step}: an action is a name or a dict with 'type', got {item!r}")
        if unsupported and kind in unsupported:
            raise StepError(f"{step}: action {kind!r} is not supported here: {unsupported[kind]}")
        if kind not in known:
            raise StepError(f"{step}: unknown action {kind!r} (known: {', '.join(known)})")
        allowed = (params or {}).get(kind)
        if allowed is not None:
            extra = sorted(set(values) - set(allowed))
            if extra:
                takes = ", ".join(allowed) or "no parameters"
                raise StepError(f"{step}: action {kind!r} does not take {', '.join(extra)} (it takes {takes})")
        parsed.append(Action(kind, values))
    return parsed
