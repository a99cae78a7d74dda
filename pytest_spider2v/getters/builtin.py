"""Getters that bring guest or task state to the host, for the metrics (reference section 3.3).

Each is ``fn(ctx, spec)`` where ``spec`` is the task's whole getter dict. File getters return
a local path (a ``str``, as the original's metrics expect) inside ``ctx.cache_dir``, or None
when the file does not exist: a missing result is a score of 0, not a harness error.
"""

from __future__ import annotations

import logging
import re
import shlex
import shutil
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, TypedDict

from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import SCRIPT_TIMEOUT, log_failure, read_host_file, reject_url
from pytest_spider2v.steps.builtin import copyfile_from_host_to_guest

logger = logging.getLogger(__name__)

DEFAULT_TIME_FORMAT = "%Y_%m_%d"

#: A command that sets the time: ``date -s X`` / ``date --set=X`` (under sudo or not) or
#: ``timedatectl set-time X``. A container may not set its clock, so an evaluation script that
#: does runs under the desktop's settable clock instead (:data:`SETTABLE_CLOCK`).
SETS_CLOCK = re.compile(r"\bdate\b[^\n;&|]*?\s(?:-s|--set)(?![A-Za-z_-])|\btimedatectl\s+set-time\b")
#: Runs a command, and everything it starts, on the desktop's settable clock (the image's
#: ``spider2v-clock``, which libfaketime applies): ``date -s`` as root moves it, later processes
#: see the new time. Only scripts that set the clock get it; the rest see the real clock as is.
SETTABLE_CLOCK = ["spider2v-clock", "run"]

#: Guest-side wait used by ``vm_file`` for files open in LibreOffice: until no soffice
#: process has used CPU for two consecutive 0.25 s intervals (at most SETTLE_TIMEOUT s).
SETTLE_TIMEOUT = 15.0
SETTLE_SCRIPT = """
import glob, os, sys, time
path, timeout = os.path.expanduser(os.path.expandvars(sys.argv[1])), float(sys.argv[2])
if not os.path.exists(os.path.join(os.path.dirname(path), ".~lock." + os.path.basename(path) + "#")):
    sys.exit(0)
def ticks():
    total = 0
    for proc in glob.glob("/proc/[0-9]*"):
        try:
            with open(proc + "/comm") as f:
                if not f.read().startswith("soffice"):
                    continue
            with open(proc + "/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total
deadline, quiet, last = time.monotonic() + timeout, 0, ticks()
while quiet < 2 and time.monotonic() < deadline:
    time.sleep(0.25)
    now = ticks()
    quiet, last = (quiet + 1 if now - last <= 1 else 0), now
print("idle" if quiet >= 2 else "busy")
"""


def with_time_suffix(name: str, stamp: str) -> str:
    """``out.csv`` -> ``out2024_06_20.csv``: the stamp goes before the file's extension.

    The original splits the whole path at its first dot, which mangles names with several
    dots or dotted folders; for the names tasks use, the two agree.
    """
    path = PurePosixPath(name)
    if not path.suffix:
        return name
    return str(path.with_name(path.stem + stamp + path.suffix))


def settle_open_document(ctx: TaskContext, guest_path: str) -> None:
    """Let LibreOffice finish saving a document it has open before the file is fetched.

    Excel tasks save with Ctrl+S in postconfig and then sleep 0.5 s, as in the original. Under
    parallel load a save takes longer than that, and fetching at once would score the stale
    file. LibreOffice's lock file tells that the document is open; its CPU use going quiet
    tells that the save is done. Files not open in LibreOffice cost one quick guest call.
    """
    result = ctx.env.execute(["python3", "-c", SETTLE_SCRIPT, guest_path, str(SETTLE_TIMEOUT)],
                             timeout=SETTLE_TIMEOUT + 30)
    if result.stdout.strip() == "busy":
        logger.warning("vm_file: LibreOffice still busy after %.0fs; fetching %s anyway", SETTLE_TIMEOUT, guest_path)


def local_cache_path(ctx: TaskContext, dest: str) -> Path:
    path = ctx.cache_path(dest)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class VmFileSpec(TypedDict, total=False):
    path: str | list[str]  # a list when ``multi``
    dest: str | list[str]
    multi: bool
    gives: list[int]
    time_suffix: bool
    time_format: str


class ScriptSpec(TypedDict, total=False):
    src: str
    dest: str
    shell: bool


class CommandSpec(TypedDict, total=False):
    command: str | list[str]
    shell: bool


class LocalFileSpec(TypedDict, total=False):
    path: str
    dest: str


class RuleSpec(TypedDict):
    rules: object  # the expected value, as the task writes it


#: ``list``'s field is named like the builtin, so the functional form
ListSpec = TypedDict("ListSpec", {"list": object})


@getters.register("vm_file")
def vm_file(ctx: TaskContext, spec: VmFileSpec) -> str | None | list[str | None]:
    """Download guest file(s) into the cache.

    ``multi``: ``path``/``dest`` are lists; ``gives`` (default ``[0]``) picks which local paths
    reach the metric -- one gives a single value, several give a list. ``time_suffix`` (single
    file only) appends today's date in ``time_format`` to both names.
    """
    if spec.get("multi", False):
        paths, dests = list(spec["path"]), list(spec["dest"])
    else:
        paths, dests = [spec["path"]], [spec["dest"]]  # type: ignore[list-item]  # without multi, path and dest are one name each
        if spec.get("time_suffix"):
            stamp = datetime.now().strftime(spec.get("time_format", DEFAULT_TIME_FORMAT))
            paths = [with_time_suffix(p, stamp) for p in paths]
            dests = [with_time_suffix(d, stamp) for d in dests]
    if len(paths) != len(dests):
        raise ValueError(f"vm_file: {len(paths)} paths but {len(dests)} dests")
    gives = set(spec.get("gives", [0]))
    out: list[str | None] = []
    for i, (guest_path, dest) in enumerate(zip(paths, dests, strict=True)):
        settle_open_document(ctx, guest_path)
        data = ctx.env.download(guest_path)
        local: str | None = None
        if data is None:
            logger.info("vm_file: %s does not exist in the guest", guest_path)
        else:
            target = local_cache_path(ctx, dest)
            target.write_bytes(data)
            local = str(target)
        if i in gives:
            out.append(local)
    return out[0] if len(out) == 1 else out


@getters.register("vm_script_output")
def vm_script_output(ctx: TaskContext, spec: ScriptSpec) -> str:
    """Upload a task's evaluation script, run it with bash, and return its stdout.

    The script's own output decides the score (it usually prints "succeed" or "failed"), so
    a non-zero exit is only logged. A script that sets the time (:data:`SETS_CLOCK`), to see
    how a project looks hours later, runs on the desktop's settable clock.

    Bash is given the script's text as the task holds it (``bash -c TEXT DEST``, so ``$0`` is
    still its path), not the copy at ``dest``, which is written as the original writes it: what
    runs is the task's script even if a process left in the guest rewrites that copy in between.
    """
    src, dest = spec["src"], spec["dest"]
    reject_url(src, "vm_script_output")
    script = read_host_file(ctx, src, "vm_script_output")
    copyfile_from_host_to_guest(ctx, src, dest)
    ctx.env.execute(["chmod", "a+x", dest])
    command = ["/bin/bash", "-c", script.decode("utf-8", "replace"), dest]
    if sets_clock(script):
        command = [*SETTABLE_CLOCK, *command]
    if spec.get("shell", False):
        result = ctx.env.execute(shlex.join(command), shell=True, timeout=SCRIPT_TIMEOUT)
    else:
        result = ctx.env.execute(command, timeout=SCRIPT_TIMEOUT)
    if not result.ok:
        log_failure(f"vm_script_output {src}", result)
    return result.stdout


def sets_clock(script: bytes) -> bool:
    """Whether a shell script sets the time (comments count too: a harmless over-match)."""
    return SETS_CLOCK.search(script.decode("utf-8", "replace")) is not None


@getters.register("vm_command_line")
def vm_command_line(ctx: TaskContext, spec: CommandSpec) -> str:
    """Stdout of one guest command."""
    result = ctx.env.execute(spec["command"], shell=spec.get("shell", False), timeout=SCRIPT_TIMEOUT)
    if not result.ok:
        log_failure(f"vm_command_line {spec['command']!r}", result)
    return result.stdout


@getters.register("local_file")
def local_file(ctx: TaskContext, spec: LocalFileSpec) -> str | None:
    """Copy a task's host file or folder (usually the gold answer) into the cache.

    Copying rather than pointing at the task folder keeps metrics that write next to their
    inputs (unzipping, converting) from touching the task's own files.
    """
    source = ctx.host_path(spec["path"])
    if not source.exists():
        logger.error("local_file: %s does not exist on the host (task gives path=%r)", source, spec["path"])
        return None
    target = local_cache_path(ctx, spec.get("dest") or source.name)
    if source.is_dir():
        if target.is_dir():
            shutil.rmtree(target)
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)
    return str(target)


@getters.register("rule")
def rule(ctx: TaskContext, spec: RuleSpec) -> Any:
    """The expected value written in the task itself."""
    return spec["rules"]


@getters.register("list")
def list_(ctx: TaskContext, spec: ListSpec) -> Any:
    return spec["list"]
