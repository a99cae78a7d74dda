"""Setup steps of the original harness that need nothing but the guest server.

Each step is ``fn(ctx, **parameters)`` registered under the original ``type`` name, with the
original parameter names and defaults so that every published task's ``config`` and
``postconfig`` bind unchanged (reference section 2.2).

Where the original only logged a failure and carried on (a non-zero init script, an ``until``
that never came true), we keep going where that is harmless and fail loudly where carrying on
would only hide the cause of a later, confusing failure.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import SCRIPT_TIMEOUT, StepError, log_failure, read_host_file, reject_url, tail

logger = logging.getLogger(__name__)

#: The original re-polls an ``until`` command every 0.3 s.
UNTIL_INTERVAL = 0.3
#: The original polls an ``until`` forever; we give up after this long and say why.
UNTIL_TIMEOUT = 120.0

Command = str | list[str]
#: Waits after ``launch`` until a launched application is usable: ``wait(ctx, command_line)``.
LaunchWait = Callable[[TaskContext, str], None]


def describe(command: Command) -> str:
    return command if isinstance(command, str) else " ".join(command)


def encode_json_values(data: bytes, src: str) -> bytes:
    """Base64 every top-level value, as the original does before copying credentials."""
    try:
        obj = json.loads(data)
    except json.JSONDecodeError as exc:
        raise StepError(f"copyfile_from_host_to_guest: json_encode needs a JSON file: {src}: {exc}") from None
    if not isinstance(obj, dict):
        raise StepError(f"copyfile_from_host_to_guest: json_encode needs a JSON object: {src}")
    encoded = {k: base64.b64encode(str(v).encode()).decode() for k, v in obj.items()}
    return json.dumps(encoded, indent=4).encode()


@setup_steps.register("copyfile_from_host_to_guest")
def copyfile_from_host_to_guest(ctx: TaskContext, src: str, dest: str, json_encode: bool = False) -> None:
    """Upload a task file (relative to the task root) to ``dest`` in the guest."""
    data = read_host_file(ctx, src, "copyfile_from_host_to_guest")
    if json_encode:
        data = encode_json_values(data, src)
    ctx.env.upload(data, dest)


@setup_steps.register("script_and_execute")
def script_and_execute(
    ctx: TaskContext, src: str, dest: str = "/home/user/init.sh", options: list[str] | None = None
) -> None:
    """Upload a script, run it with bash to completion, then delete it.

    A failing script is logged, not raised, as in the original: many init scripts end with a
    harmless failing command, and the evaluation decides whether the setup was good enough.
    """
    reject_url(src, "script_and_execute")
    copyfile_from_host_to_guest(ctx, src, dest)
    ctx.env.execute(["chmod", "a+x", dest])
    command = ["/bin/bash", dest, *(options or [])]
    started = time.monotonic()
    result = ctx.env.execute(command, timeout=SCRIPT_TIMEOUT)
    logger.info("script_and_execute %s: exit %d in %.1fs", src, result.returncode, time.monotonic() - started)
    if not result.ok:
        log_failure(f"script_and_execute {src}", result)
    ctx.env.execute(["rm", "-f", dest])


#: What ``launch`` waits for after starting a command that matches: an application's step module
#: adds its own (:func:`after_launch`), so that launching the application returns once it is
#: usable, as ``open`` waits for its window.
LAUNCH_WAITS: list[tuple[re.Pattern[str], LaunchWait]] = []


def after_launch(pattern: str) -> Callable[[LaunchWait], LaunchWait]:
    """Register ``wait(ctx, command_line)`` to run after ``launch`` of a command matching ``pattern``."""

    def register(wait: LaunchWait) -> LaunchWait:
        LAUNCH_WAITS.append((re.compile(pattern), wait))
        return wait

    return register


@setup_steps.register("launch")
def launch(ctx: TaskContext, command: Command, shell: bool = False) -> None:
    """Start a program in the guest without waiting for it to end.

    The original returned at once, and its first observation came a fixed 5 s later. A program
    that changes the screen only after a quiet start (JupyterLab opens its page in the browser
    seconds after it is launched) would then be caught before or after that change depending on
    the machine's load; the waits registered for it (:data:`LAUNCH_WAITS`) make the start state
    the same on every reset.
    """
    if not command:
        raise StepError("launch: empty command")
    ctx.env.launch(command, shell=shell)
    line = command if isinstance(command, str) else " ".join(command)
    for pattern, wait in LAUNCH_WAITS:
        if pattern.search(line):
            wait(ctx, line)


#: How long ``open`` waits for the opened file's window (LibreOffice takes 5-20 s to start).
OPEN_WINDOW_TIMEOUT = 60.0
#: How often ``open`` looks for that window (a look is one ``wmctrl -l``, a few milliseconds).
OPEN_WINDOW_INTERVAL = 0.1


@setup_steps.register("open")
def open_(ctx: TaskContext, path: str) -> None:
    """``xdg-open`` a guest file (LibreOffice for .xlsx, the editor for text), then wait until a
    window titled with the file's name exists.

    The original returns at once and the first observation came 5 s later, so on a busy machine
    an agent (and the reset check, which compares two settled desktops) could find the
    application still starting. Waiting makes the start state the same however long the
    application takes; a window that never comes is logged, not failed, as the original would
    have carried on too.
    """
    if not path:
        raise StepError("open: empty path")
    ctx.env.open(path)
    name = path.rstrip("/").rsplit("/", 1)[-1]
    deadline = time.monotonic() + OPEN_WINDOW_TIMEOUT
    while time.monotonic() < deadline:
        titles = ctx.env.execute(["wmctrl", "-l"]).stdout
        if any(name in line.split(None, 3)[-1] for line in titles.splitlines() if line.strip()):
            return
        time.sleep(OPEN_WINDOW_INTERVAL)
    logger.warning("open %s: no window titled with %r after %.0f s", path, name, OPEN_WINDOW_TIMEOUT)


@setup_steps.register("activate_window")
def activate_window(ctx: TaskContext, window_name: str, strict: bool = False, by_class: bool = False) -> None:
    """Raise and focus a window by title (``strict``: exact title; ``by_class``: WM_CLASS)."""
    if not window_name:
        raise StepError("activate_window: empty window_name")
    ctx.env.activate_window(window_name, strict=strict, by_class=by_class)


@setup_steps.register("close_window")
def close_window(ctx: TaskContext, window_name: str, strict: bool = False, by_class: bool = False) -> None:
    """Close a window gracefully, with the same matching rules as ``activate_window``."""
    if not window_name:
        raise StepError("close_window: empty window_name")
    flag = "-xc" if by_class else "-Fc" if strict else "-c"
    result = ctx.env.execute(["wmctrl", flag, window_name])
    if not result.ok:
        log_failure(f"close_window {window_name!r}", result)


@setup_steps.register("sleep")
def sleep(ctx: TaskContext, seconds: float) -> None:
    """Wait on the host (postconfig uses it to let a save finish)."""
    time.sleep(float(seconds))


def until_met(until: dict[str, Any], result: ExecResult) -> bool:
    """Any one of the original's conditions: exact returncode, or a substring of stdout/stderr."""
    return (
        ("returncode" in until and result.returncode == until["returncode"])
        or ("stdout" in until and until["stdout"] in result.stdout)
        or ("stderr" in until and until["stderr"] in result.stderr)
    )


def save_output(ctx: TaskContext, name: str | None, text: str) -> None:
    if name:
        path = ctx.cache_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@setup_steps.register("execute")
@setup_steps.register("command")
def execute(
    ctx: TaskContext,
    command: Command,
    shell: bool = False,
    stdout: str | None = None,
    stderr: str | None = None,
    until: dict[str, Any] | None = None,
) -> None:
    """Run a command to completion; with ``until``, re-run it until the condition holds.

    ``stdout``/``stderr`` name cache files that receive the (last) output, for later getters.
    """
    if not command:
        raise StepError("execute: empty command")
    deadline = time.monotonic() + UNTIL_TIMEOUT
    while True:
        result = ctx.env.execute(command, shell=shell, timeout=SCRIPT_TIMEOUT)
        save_output(ctx, stdout, result.stdout)
        save_output(ctx, stderr, result.stderr)
        if not until:
            if not result.ok:
                log_failure(f"execute {describe(command)!r}", result)
            return
        if until_met(until, result):
            return
        if time.monotonic() >= deadline:
            raise StepError(
                f"execute {describe(command)!r}: waited {UNTIL_TIMEOUT:.0f}s for {until!r} "
                f"but the last run gave returncode {result.returncode}, "
                f"stdout {tail(result.stdout, 300)!r}, stderr {tail(result.stderr, 300)!r}"
            )
        time.sleep(UNTIL_INTERVAL)


__all__ = [
    "StepError",  # defined in run.task_helpers (getters raise it too); steps of other packages import it here
    "activate_window",
    "close_window",
    "copyfile_from_host_to_guest",
    "execute",
    "launch",
    "open_",
    "script_and_execute",
    "sleep",
]
