"""A container seen from its Docker engine (:class:`~pytest_spider2v.environments.witness.Witness`).

Commands run through the engine's ``exec``, never through the guest server: as root, then
narrowed by ``setpriv`` to the desktop user with :data:`SEALED_CAPABILITY` as an ambient
capability (so no process of the container may trace them or open their pipes), under
``env -i`` with exactly the environment given, and under ``timeout`` as the guest's commands are.
Those programs are the image's own; the integrity check (:mod:`pytest_spider2v.run.integrity`)
has found them unchanged before anything runs through them.

The writable layer is read on the host when the engine's storage is this machine's
(:mod:`.overlay`: milliseconds, with each file's state); otherwise from ``docker diff`` and a
probe of the files' states. Locality is proven, not assumed: a file the engine writes into the
container must appear in the layer read here.

The engine's events say what was done to the container from outside (killed, stopped, paused,
removed); the host's memory and disk are read where the engine's host is this machine.
"""

from __future__ import annotations

import io
import json
import os
import posixpath
import secrets
import stat
import tarfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

import docker
from docker.errors import DockerException, NotFound
from docker.models.containers import Container

from pytest_spider2v.environments.base import EnvironmentFault, ExecResult
from pytest_spider2v.environments.locations import GUEST_PROBES
from pytest_spider2v.environments.witness import (
    SEALED_CAPABILITY,
    Change,
    ChangeKind,
    FileState,
    Listener,
    Process,
)
from pytest_spider2v.providers.docker.overlay import file_state, layer_changes
from pytest_spider2v.signals.threads import leave_signals_to_main_thread

#: The image's Python, which runs the probes (:data:`GUEST_PROBES`).
PYTHON = "/usr/bin/python3"
#: Docker's ``diff`` kinds.
DIFF_KINDS: dict[int, ChangeKind] = {0: "changed", 1: "added", 2: "deleted"}
#: How long after a command's own timeout its exec may take to return (Docker waits up to 2 s
#: for a background process holding the output), before the engine is given up on.
EXEC_GRACE = 30.0
#: Exit codes of an exec that may have been cut short by its container stopping (besides those of
#: a signal, over 128): the engine's own "could not run it" (126, its text on the output) and none.
EXEC_CUT_SHORT = frozenset({-1, 126})
#: How long the container's state may lag behind the end of an exec it stopped under.
STOP_SETTLE = 2.0
#: Every command runs inside this frame: a mark before its output and after it. The engine can
#: lose a short command's output and still report its exit code (moby/moby#27289, seen on cluster
#: nodes as ``id -u`` answering nothing); a missing mark makes that a fault of the environment, so no
#: metric reads a lost output as the command's silence. The shell is the image's own, under the
#: integrity check as the other programs are.
FRAME = 'printf %s "$0"; "$@"; code=$?; printf %s "$0"; exit $code'
#: Links followed when a file read is a symbolic link.
MAX_LINKS = 8
#: Docker's FileMode bits in an archive's stat header.
GO_DIR, GO_SYMLINK = 1 << 31, 1 << 27
#: The host's memory or disk below these is an outside cause of an environment's failure.
LOW_MEMORY_FRACTION = 0.02
LOW_DISK_BYTES = 1 << 30
#: Engine events that only an outside hand causes (the container has no access to its engine).
OUTSIDE_EVENTS = {"kill": "was sent signal {signal} by its engine (docker kill, stop or rm)",
                  "pause": "was paused by its engine", "stop": "was stopped by its engine",
                  "destroy": "was removed by its engine"}


class EngineWitness:
    """One container through its engine. ``exec_api`` is a low-level client without a read
    timeout (a command may run for minutes in silence; the witness keeps its own deadline)."""

    def __init__(self, container: Container, exec_api: docker.APIClient, *, user: str,
                 ports: tuple[int, ...]) -> None:
        self.container = container
        self.api = exec_api
        self.user = user
        self.ports = ports
        self._own: set[str] = set()  #: engine actions the harness itself took (a pause by the disk watch)
        self._layers = self._local_layers()

    # -- the writable layer -------------------------------------------------------------------
    def changes(self) -> list[Change]:
        if self._layers is not None:
            upper, lowers = self._layers
            return layer_changes(upper, lowers)
        try:
            listed = self.container.diff() or []
        except DockerException as exc:
            raise EnvironmentFault(f"{self.container.name}: the engine's diff failed: {exc}") from exc
        entries: list[tuple[str, ChangeKind]] = [(str(entry["Path"]), DIFF_KINDS[int(entry["Kind"])])
                                                 for entry in listed]
        states = self.states([path for path, kind in entries if kind != "deleted"])
        return sorted((Change(path, kind, states.get(path)) for path, kind in entries), key=lambda c: c.path)

    def states(self, paths: Sequence[str]) -> dict[str, FileState]:
        """The state of each path that exists, as the container sees it: read on the host for a
        path of the writable layer here (as :meth:`changes` reads it), else by the image's Python
        inside, as root."""
        found: dict[str, FileState] = {}
        inside = []
        for path in paths:
            state = self._upper_state(path)
            if state is None:
                inside.append(path)
            elif not stat.S_ISCHR(state.mode):  # a whiteout: deleted
                found[path] = state
        if inside:
            probed = self._probe("states", inside, as_root=True)
            found.update({path: FileState(*values) for path, values in probed.items() if values is not None})
        return found

    def _upper_state(self, path: str) -> FileState | None:
        if self._layers is None:
            return None
        try:
            return file_state(os.lstat(self._layers[0] / path.lstrip("/")))
        except OSError:
            return None

    @property
    def local(self) -> bool:
        """Whether the engine's storage is read on this machine."""
        return self._layers is not None

    @property
    def layer(self) -> Path | None:
        """The container's writable layer, where it is on this machine."""
        return None if self._layers is None else self._layers[0]

    def _local_layers(self) -> tuple[Path, list[Path]] | None:
        """The container's upper and lower overlay folders, if they are this machine's."""
        driver = self.container.attrs.get("GraphDriver") or {}
        data = driver.get("Data") or {}
        if driver.get("Name") != "overlay2" or not data.get("UpperDir"):
            return None
        upper = Path(data["UpperDir"])
        lowers = [Path(p) for p in str(data.get("LowerDir") or "").split(":") if p]
        if not upper.is_dir():
            return None
        marker = f"/tmp/.spider2v-witness-{secrets.token_hex(8)}"
        self._exec(["touch", marker], user="root", timeout=30)
        try:
            return (upper, lowers) if (upper / marker.lstrip("/")).exists() else None
        finally:
            self._exec(["rm", "-f", marker], user="root", timeout=30)

    # -- processes ------------------------------------------------------------------------------
    def processes(self) -> list[Process]:
        try:
            table = self.container.top(ps_args="-eo pid,uid,args")
        except DockerException as exc:
            raise EnvironmentFault(f"{self.container.name}: the engine's process table: {exc}") from exc
        return [Process(int(pid), int(uid), command) for pid, uid, command in table.get("Processes") or []]

    def listeners(self, ports: Sequence[int]) -> dict[int, list[Listener]]:
        found = self._probe("listeners", [str(port) for port in ports])
        return {int(port): [Listener(int(port), inode, uid, pid, exe) for inode, uid, pid, exe in sockets]
                for port, sockets in found.items()}

    def _probe(self, name: str, args: list[str], *, as_root: bool = False) -> dict[str, Any]:
        """Run a probe (:data:`GUEST_PROBES`) with no environment, as root (which may read any
        file) or as the desktop user, sealed (who may look into the user's processes, as root may
        not, and none of them into it)."""
        source = (GUEST_PROBES / f"{name}.py").read_text()
        result = self.run([PYTHON, "-I", "-S", "-c", source, *args], env={}, workdir="/", timeout=60,
                          as_root=as_root)
        if not result.ok:
            raise EnvironmentFault(f"{self.container.name}: probe {name} failed: {result.stderr[-500:]}")
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    # -- commands and files -----------------------------------------------------------------
    def run(self, argv: Sequence[str], *, env: Mapping[str, str], workdir: str, timeout: float,
            as_root: bool = False) -> ExecResult:
        inner = ["env", "-i", *(f"{k}={v}" for k, v in env.items()),
                 "timeout", "--kill-after=5", f"{timeout:g}", *argv]
        if as_root:
            return self._exec(inner, user="root", workdir=workdir, timeout=timeout + 5)
        sealed = ["setpriv", f"--reuid={self.user}", f"--regid={self._group()}", "--init-groups",
                  f"--inh-caps=+{SEALED_CAPABILITY}", f"--ambient-caps=+{SEALED_CAPABILITY}", "--", *inner]
        return self._exec(sealed, user="root", workdir=workdir, timeout=timeout + 5)

    def start(self, argv: Sequence[str], *, env: Mapping[str, str], workdir: str) -> None:
        command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv]
        try:
            exec_id = self.api.exec_create(self.container.id, command, user=self.user, workdir=workdir)["Id"]
            self.api.exec_start(exec_id, detach=True)
        except DockerException as exc:
            raise EnvironmentFault(f"{self.container.name}: start {list(argv)!r}: {exc}") from exc

    def read(self, path: str) -> bytes | None:
        for _ in range(MAX_LINKS):
            try:
                stream, found = self.container.get_archive(path)
            except NotFound:
                return None
            except DockerException as exc:
                raise EnvironmentFault(f"{self.container.name}: read {path}: {exc}") from exc
            header = found or {}
            mode = int(header.get("mode", 0))
            if mode & GO_SYMLINK:
                target = str(header.get("linkTarget") or "")
                path = target if target.startswith("/") else posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
                continue
            if mode & GO_DIR:
                return None
            with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
                member = archive.next()
                handle = archive.extractfile(member) if member is not None and member.isfile() else None
                return handle.read() if handle is not None else None
        return None

    def write(self, path: str, data: bytes) -> None:
        folder, name = posixpath.split(path)
        made = self._exec(["mkdir", "-p", folder], user=self.user, timeout=30)
        if not made.ok:
            raise EnvironmentFault(f"{self.container.name}: write {path}: {made.stderr.strip()}")
        member = tarfile.TarInfo(name)
        member.size, member.mode, member.mtime = len(data), 0o644, int(time.time())
        member.uid, member.gid = self._ids()
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as archive:
            archive.addfile(member, io.BytesIO(data))
        try:
            self.container.put_archive(folder, buffer.getvalue())
        except DockerException as exc:
            raise EnvironmentFault(f"{self.container.name}: write {path}: {exc}") from exc

    # -- outside causes -----------------------------------------------------------------------
    def took(self, action: str) -> None:
        """The harness itself took engine ``action`` on the container (not an outside cause)."""
        self._own.add(action)

    def outside_cause(self, since: float) -> str | None:
        name = self.container.name
        try:
            self.container.reload()
        except NotFound:
            return f"{name} was removed by its engine"
        except DockerException as exc:
            return f"{name}: its engine did not answer ({exc})"
        try:
            events = list(self.api.events(since=int(since), until=int(time.time()) + 1, decode=True,
                                          filters={"container": str(self.container.id)}))
        except DockerException as exc:
            return f"{name}: its engine's events could not be read ({exc})"
        for event in events:
            action = str(event.get("Action") or event.get("status") or "")
            if action in OUTSIDE_EVENTS and action not in self._own:
                signal = (event.get("Actor") or {}).get("Attributes", {}).get("signal", "?")
                when = time.strftime("%H:%M:%S", time.localtime(int(event.get("time", 0))))
                return f"{name} {OUTSIDE_EVENTS[action].format(signal=signal)} at {when}"
        if self.container.attrs["State"].get("Paused") and "pause" not in self._own:
            return f"{name} is paused by its engine"
        return self._host_shortage() if self.local else None

    def _host_shortage(self) -> str | None:
        """The host short of memory or disk, read where the engine's host is this machine."""
        memory = _meminfo()
        if memory and memory.get("MemAvailable", 1) < LOW_MEMORY_FRACTION * memory.get("MemTotal", 0):
            return (f"the host was short of memory ({memory['MemAvailable'] >> 10} MiB available of "
                    f"{memory['MemTotal'] >> 10} MiB)")
        if self._layers is not None:
            free = _free_bytes(self._layers[0])
            if free is not None and free < LOW_DISK_BYTES:
                return f"the host's disk was nearly full ({free >> 20} MiB free)"
        return None

    # -- plumbing ---------------------------------------------------------------------------
    def _ids(self) -> tuple[int, int]:
        if not hasattr(self, "_uid"):
            result = self._exec(["id", "-u", self.user], user="root", timeout=30)
            group = self._exec(["id", "-g", self.user], user="root", timeout=30)
            if not (result.ok and group.ok):
                raise EnvironmentFault(f"{self.container.name}: no user {self.user!r}: {result.stderr.strip()}")
            self._uid, self._gid = int(result.stdout), int(group.stdout)
        return self._uid, self._gid

    def _group(self) -> int:
        return self._ids()[1]

    def _exec(self, command: list[str], *, user: str, timeout: float, workdir: str | None = None) -> ExecResult:
        """Run ``command`` through the engine; the engine itself failing (or not returning in
        time) is a fault of the environment. So is a container that stopped while the command ran:
        the engine then answers its own error text on the command's output ("OCI runtime exec
        failed ..."), which must never reach a metric as the command's (an exclude-only rule would
        pass it). Nor must an output the engine lost (:data:`FRAME`)."""
        mark = secrets.token_hex(8)

        def run() -> ExecResult:
            framed = ["/bin/sh", "-c", FRAME, mark, *command]
            exec_id = self.api.exec_create(self.container.id, framed, user=user, workdir=workdir)["Id"]
            out, err = self.api.exec_start(exec_id, demux=True)
            code = self.api.exec_inspect(exec_id).get("ExitCode")
            returncode = -1 if code is None else int(code)
            if returncode in EXEC_CUT_SHORT or returncode > 128:
                self._unless_stopped(command, returncode)
            stdout = unframed(out or b"", mark.encode())
            if stdout is None:
                raise EnvironmentFault(f"{self.container.name}: the engine lost the output of {command[:3]!r} "
                                       f"(exit code {returncode}, {len(out or b'')} bytes without the frame)")
            return ExecResult(returncode, stdout.decode(errors="replace"), (err or b"").decode(errors="replace"))

        return _within(run, timeout + EXEC_GRACE, f"{self.container.name}: exec {command[:3]!r}")

    def _unless_stopped(self, command: list[str], code: int) -> None:
        """Raise if the container stopped under a command that ended by a signal or never started.
        The engine reports the exec's end before the container's: its state is given a moment."""
        deadline = time.monotonic() + STOP_SETTLE
        while True:
            if not self.api.inspect_container(str(self.container.id))["State"].get("Running"):
                raise EnvironmentFault(f"{self.container.name}: the container stopped while {command[:3]!r} ran "
                                       f"(exit code {code})")
            if time.monotonic() >= deadline:
                return
            time.sleep(0.1)


def unframed(output: bytes, mark: bytes) -> bytes | None:
    """``output`` inside its two marks (:data:`FRAME`), or None when either is missing."""
    if len(output) < 2 * len(mark) or not (output.startswith(mark) and output.endswith(mark)):
        return None
    return output[len(mark):len(output) - len(mark)]


def _within(call: Callable[[], ExecResult], seconds: float, what: str) -> ExecResult:
    pool = ThreadPoolExecutor(max_workers=1, initializer=leave_signals_to_main_thread)
    try:
        return pool.submit(call).result(timeout=seconds)
    except FutureTimeout:
        raise EnvironmentFault(f"{what}: the engine did not return within {seconds:g} s") from None
    except DockerException as exc:
        raise EnvironmentFault(f"{what}: {exc}") from exc
    finally:
        pool.shutdown(wait=False)


def _meminfo() -> dict[str, int]:
    try:
        lines = Path("/proc/meminfo").read_text().splitlines()
    except OSError:
        return {}
    values: dict[str, int] = {}
    for line in lines:
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            values[key] = int(parts[0]) << 10
    return values


def _free_bytes(path: Path) -> int | None:
    try:
        info = os.statvfs(path)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize
