"""The witness of a real container (``providers/docker/witness.py``, ``overlay.py``, ``disk.py``):
what it shows of the container, as its engine holds it, whatever the agent did inside.

One desktop for the module: each test writes into it as an agent would (through the guest
server, as the desktop user, with sudo where the agent would use it) and asks the witness.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import docker
import pytest

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.environments.witness import Witness
from pytest_spider2v.providers.docker.provider import DockerProvider
from pytest_spider2v.providers.docker.witness import EngineWitness
from tests.support.environments import environment_of

pytestmark = pytest.mark.e2e

ENV = {"HOME": "/home/user", "PATH": "/usr/local/bin:/usr/bin:/bin"}


@pytest.fixture(scope="module")
def desktop() -> Iterator[Environment]:
    provider = DockerProvider(owner_token(), "witness", spare=False)
    try:
        with environment_of(provider, "desktop") as environment:
            yield environment
    finally:
        provider.close()


def witness_of(env: Environment) -> EngineWitness:
    assert isinstance(env.witness, EngineWitness) and isinstance(env.witness, Witness)
    return env.witness


def as_agent(env: Environment, shell: str) -> None:
    result = env.execute(shell, shell=True, timeout=60)
    assert result.ok, result.stderr


def test_the_layer_read_on_the_host_is_what_docker_diff_reports(desktop: Environment) -> None:
    witness = witness_of(desktop)
    assert witness.local  # the engine's storage is this machine's, and proven so
    as_agent(desktop, "echo x > ~/made.txt && sudo cp /usr/bin/true /usr/bin/true.copy && sudo rm /usr/bin/yes")
    on_host = {(change.path, change.kind) for change in witness.changes()}
    container = docker.from_env().containers.get(desktop.name)
    by_engine = {(entry["Path"], {0: "changed", 1: "added", 2: "deleted"}[entry["Kind"]]) for entry in container.diff()}
    assert on_host == by_engine
    assert {("/home/user/made.txt", "added"), ("/usr/bin/true.copy", "added"), ("/usr/bin/yes", "deleted")} <= on_host
    # the engine's own diff, as a cluster node's witness reads it, agrees too, with the same files' states
    remote = EngineWitness(container, witness.api, user="user", ports=witness.ports)
    remote._layers = None  # as if the engine's storage were elsewhere
    assert {(c.path, c.kind) for c in remote.changes()} == on_host
    state = next(c.state for c in remote.changes() if c.path == "/home/user/made.txt")
    assert state is not None and state.size == 2


def test_a_write_shows_as_a_new_change_time_that_no_process_inside_sets_back(desktop: Environment) -> None:
    witness = witness_of(desktop)
    as_agent(desktop, "echo one > ~/kept.txt")
    before = witness.states(["/home/user/kept.txt"])["/home/user/kept.txt"]
    as_agent(desktop, "cp -p ~/kept.txt /tmp/stamp; echo two > ~/kept.txt; touch -r /tmp/stamp ~/kept.txt")
    after = witness.states(["/home/user/kept.txt"])["/home/user/kept.txt"]
    assert after.mtime_ns == before.mtime_ns  # the agent set the modification time back...
    assert after.ctime_ns > before.ctime_ns  # ...and could not the change time


def test_commands_run_sealed_from_the_agents_processes_with_exactly_the_environment_given(desktop: Environment) -> None:
    witness = witness_of(desktop)
    shown = witness.run(["sh", "-c", "grep CapAmb /proc/self/status; env; id -un"], env=ENV, workdir="/home/user",
                        timeout=30).stdout.splitlines()
    assert shown[0] == "CapAmb:\t0000000000000400" and shown[-1] == "user"
    assert {line.split("=", 1)[0] for line in shown[1:-1]} == {"HOME", "PATH", "PWD"}  # PWD: the shell's own
    # the frame around every output (moby/moby#27289) leaves none of itself: silence, a last line
    # without its newline, and an exit code come through as they are
    framed = witness.run(["sh", "-c", "printf x; exit 3"], env=ENV, workdir="/home/user", timeout=30)
    assert (framed.returncode, framed.stdout) == (3, "x")
    assert witness.run(["true"], env=ENV, workdir="/home/user", timeout=30).stdout == ""
    # a sealed command running, an agent's process tries to trace it, and one of its own
    with ThreadPoolExecutor(max_workers=1) as pool:
        sealed = pool.submit(witness.run, ["sleep", "7.5"], env=ENV, workdir="/home/user", timeout=30)
        time.sleep(2)
        tried = desktop.execute(["python3", "-c", TRACE], timeout=30).stdout.split()
        assert sealed.result().ok
    assert tried == ["sealed", "-1", "1", "own", "0", "0"]  # EPERM for the sealed one


TRACE = """import ctypes, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
own = subprocess.Popen(["sleep", "30"])
sealed = int(subprocess.run(["pgrep", "-fx", "sleep 7.5"], capture_output=True, text=True).stdout.split()[0])
for name, pid in (("sealed", sealed), ("own", own.pid)):
    ctypes.set_errno(0)  # a call that succeeds leaves errno as it was
    print(name, libc.ptrace(16, pid, 0, 0), ctypes.get_errno())
own.kill()
"""


def test_files_are_read_as_the_engine_has_them_and_written_as_the_user(desktop: Environment) -> None:
    witness = witness_of(desktop)
    as_agent(desktop, "echo secret > ~/locked.txt && chmod 0 ~/locked.txt && ln -sf ~/locked.txt ~/link.txt")
    with pytest.raises(EnvironmentFault, match="500"):  # the guest, as the user, cannot read it...
        desktop.download("/home/user/locked.txt")
    assert witness.read("/home/user/locked.txt") == b"secret\n"  # ...the engine can
    assert witness.read("/home/user/link.txt") == b"secret\n"  # a link is followed
    assert witness.read("/home/user") is None and witness.read("/home/user/none") is None
    witness.write("/home/user/new/folder/gold.csv", b"a,b\n")
    owner = witness.run(["stat", "-c", "%U:%G %a", "/home/user/new/folder/gold.csv", "/home/user/new"], env=ENV,
                        workdir="/home/user", timeout=30)
    assert owner.stdout.split("\n")[:2] == ["user:user 644", "user:user 755"]


def test_the_guest_server_is_out_of_the_agents_reach(desktop: Environment) -> None:
    """Not dumpable: the agent's processes may not trace it, take its socket, or read its files."""
    code = ("import ctypes, os\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "guest = next(int(p) for p in os.listdir('/proc') if p.isdigit() and "
            "open(f'/proc/{p}/cmdline', 'rb').read() == b'python3\\x00-m\\x00guest\\x00')\n"
            "print(libc.ptrace(16, guest, 0, 0), ctypes.get_errno())\n"
            "print(os.access(f'/proc/{guest}/fd', os.R_OK))\n")
    assert desktop.execute(["python3", "-c", code], timeout=30).stdout.split() == ["-1", "1", "False"]
    (server,) = witness_of(desktop).listeners([5000])[5000]
    assert server.uid == 1000 and server.pid is None  # its socket, known by inode; its process unreadable


def test_outside_causes_are_the_engines_events_not_the_agents_doing(desktop: Environment) -> None:
    witness = witness_of(desktop)
    since = time.time()
    as_agent(desktop, "sudo kill -STOP $(pgrep -x openbox) && sudo kill -CONT $(pgrep -x openbox)")
    assert witness.outside_cause(since) is None  # what the agent does inside is no outside cause
    container = docker.from_env().containers.get(desktop.name)
    container.pause()
    container.unpause()
    cause = witness.outside_cause(since)
    assert cause is not None and "was paused by its engine" in cause


def test_a_command_whose_container_stops_under_it_is_a_fault_not_an_output(desktop: Environment) -> None:
    """Last: it stops the desktop. The engine answers an exec into a container that stopped with
    its own error text on the command's output; the witness raises instead, so no metric reads it."""
    witness = witness_of(desktop)
    stopper = ThreadPoolExecutor(max_workers=1)
    try:
        stopping = stopper.submit(lambda: (time.sleep(2), docker.from_env().containers.get(desktop.name).kill()))
        with pytest.raises(EnvironmentFault, match="stopped"):
            witness.run(["sh", "-c", "sleep 30; echo succeed"], env=ENV, workdir="/home/user", timeout=60)
        stopping.result()
        with pytest.raises(EnvironmentFault):
            witness.run(["echo", "succeed"], env=ENV, workdir="/home/user", timeout=30)
    finally:
        stopper.shutdown()
