"""Running commands as the desktop user, the way the original server did.

Every command gets the desktop's environment (``DISPLAY``, ``DBUS_SESSION_BUS_ADDRESS``,
``XAUTHORITY``, ``HOME``) and starts in the home folder, so a command typed by a setup step
behaves like one typed into the desktop's terminal.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

HOME = Path(os.environ.get("HOME", "/home/user"))


def desktop_env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DISPLAY", ":1")
    env.setdefault("XAUTHORITY", str(HOME / ".Xauthority"))
    env["HOME"] = str(HOME)
    return env


def normalise(command: str | list[str], shell: bool) -> str | list[str]:
    """A str is shlex-split unless ``shell``; leading ``~/`` in arguments is expanded."""
    if shell:
        return command if isinstance(command, str) else shlex.join(command)
    args = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    return [os.path.expanduser(a) if a.startswith("~/") else a for a in args]


@dataclass
class Completed:
    returncode: int
    output: str
    error: str
    finished: bool = True  # False: could not start, or killed at the timeout


def run(command: str | list[str], shell: bool = False, timeout: float = 300.0) -> Completed:
    """Run to completion, capturing text output.

    The command runs in its own process group so that a timeout kills everything it started;
    otherwise a background daemon holding the pipes open would make the request hang.
    """
    args = normalise(command, shell)
    try:
        proc = subprocess.Popen(
            args, shell=shell, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, errors="replace", cwd=HOME, env=desktop_env(), start_new_session=True,
        )
    except OSError as exc:  # e.g. program not found: report it like a shell would
        return Completed(127, "", f"{exc}\n", finished=False)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a grandchild escaped the group and holds the pipes
            out, err = "", ""
        return Completed(124, out or "", (err or "") + f"\ncommand timed out after {timeout:g} s\n", finished=False)
    return Completed(proc.returncode, out, err)


def launch(command: str | list[str], shell: bool = False) -> subprocess.Popen:
    """Start detached (own session, no output); a thread reaps it so no zombie is left."""
    proc = subprocess.Popen(
        normalise(command, shell), shell=shell, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, cwd=HOME, env=desktop_env(), start_new_session=True,
    )
    threading.Thread(target=proc.wait, daemon=True).start()
    return proc
