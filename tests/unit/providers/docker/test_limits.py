"""Environment limits without Docker: parsing, merging, the snapshot table, cgroup counters and
the faults that name a limit."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from pytest_spider2v.environments.base import BrokenFromInside, EnvironmentFault
from pytest_spider2v.environments.limits import Limits, format_memory, parse_memory, snapshot_limits
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.snapshots import load_snapshots
from pytest_spider2v.providers.docker.cgroups import ContainerCgroups, LimitHits
from pytest_spider2v.providers.docker.environment import DockerEnvironment
from pytest_spider2v.providers.docker.guard import breach_message
from pytest_spider2v.providers.docker.provider import docker_limits

GIB, MIB = 2**30, 2**20


# -- sizes ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "size"), [
    ("3g", 3 * GIB), ("512m", 512 * MIB), ("1.5g", 1536 * MIB), ("4G", 4 * GIB), ("2gb", 2 * GIB),
    ("65536k", 64 * MIB), ("10485760", 10 * MIB), (" 512m ", 512 * MIB), ("0", 0), (3 * GIB, 3 * GIB),
])
def test_memory_sizes_are_read_as_docker_writes_them(text: str | int, size: int) -> None:
    assert parse_memory(text) == size


@pytest.mark.parametrize("text", ["3x", "g", "", "-1g", "1e9", "3 gigs"])
def test_a_malformed_memory_size_is_an_error(text: str) -> None:
    with pytest.raises(ValueError, match="expected a number"):
        parse_memory(text)


def test_a_memory_limit_below_dockers_minimum_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least 6m"):
        parse_memory("4m")


@pytest.mark.parametrize(("size", "text"), [(3 * GIB, "3g"), (512 * MIB, "512m"), (1536 * MIB, "1536m"),
                                            (100 * 2**10, "100k"), (1000, "1000")])
def test_memory_sizes_are_written_in_the_largest_exact_unit(size: int, text: str) -> None:
    assert format_memory(size) == text


# -- merging ----------------------------------------------------------------------------------------
def test_options_override_the_table_field_by_field() -> None:
    table = Limits(memory=3 * GIB, cpus=2.0, pids=2048)
    assert Limits.from_options(memory="4g").over(table) == Limits(4 * GIB, 2.0, 2048)
    assert Limits.from_options(cpus="1.5", pids=4096).over(table) == Limits(3 * GIB, 1.5, 4096)
    assert Limits().over(table) == table


def test_zero_lifts_a_limit_rather_than_leaving_it_to_the_table() -> None:
    limits = Limits.from_options(memory=0, cpus=0, pids=0).over(Limits(3 * GIB, 2.0, 2048))
    assert limits == Limits(0, 0.0, 0)
    assert docker_limits(limits, host_cpus=8) == {}


def test_negative_cpus_or_pids_are_errors() -> None:
    with pytest.raises(ValueError, match="cpus"):
        Limits.from_options(cpus=-1)
    with pytest.raises(ValueError, match="pids"):
        Limits.from_options(pids="-5")


def test_docker_options_leave_no_swap_and_cap_cpus_at_the_hosts() -> None:
    options = docker_limits(Limits(memory=512 * MIB, cpus=4.0, pids=256), host_cpus=2)
    assert options == {"mem_limit": 512 * MIB, "memswap_limit": 512 * MIB, "nano_cpus": 2_000_000_000,
                       "pids_limit": 256}
    assert docker_limits(Limits(cpus=1.5), host_cpus=2) == {"nano_cpus": 1_500_000_000}


# -- the snapshot table -------------------------------------------------------------------------------
def test_a_snapshots_own_limits_go_over_the_tables(tmp_path: Path) -> None:
    path = tmp_path / "snapshots.yaml"
    path.write_text(
        "limits: {memory: 2g, cpus: 1.5, pids: 1024}\n"
        "snapshots:\n"
        "  desktop: desktop\n"
        "  airflow:\n"
        "    recipe: airflow\n"
        "    limits: {memory: 4g, cpus: 2}\n"
    )
    limits = snapshot_limits(path)
    assert limits["desktop"] == Limits(2 * GIB, 1.5, 1024)
    assert limits["airflow"] == Limits(4 * GIB, 2.0, 1024)


@pytest.mark.parametrize(("block", "error"), [
    ("limits: {memory: 2g, swap: 1g}", r"unknown limits \['swap'\]"),
    ("limits: {memory: lots}", "memory size 'lots'"),
    ("limits: [2g]", "must be a mapping"),
])
def test_a_bad_limits_block_names_the_snapshot(tmp_path: Path, block: str, error: str) -> None:
    path = tmp_path / "snapshots.yaml"
    path.write_text(f"snapshots:\n  airflow:\n    recipe: airflow\n    {block}\n")
    with pytest.raises(ValueError, match=f"airflow.limits: {error}"):
        snapshot_limits(path)


def test_every_shipped_snapshot_has_all_three_limits() -> None:
    limits = snapshot_limits(RECIPES_DIR / "snapshots.yaml")
    assert set(limits) == set(load_snapshots())
    for name, snapshot_limit in limits.items():
        assert snapshot_limit.memory and snapshot_limit.cpus and snapshot_limit.pids, name
    # the application servers need more than the bare desktop
    for heavy in ("airflow", "dagster", "superset"):
        assert limits[heavy].memory > limits["desktop"].memory


# -- cgroup counters --------------------------------------------------------------------------------
CONTAINER = "81d89f3b9494"
HYBRID = [  # /proc/<pid>/cgroup of a container on a cgroup v1 host with the unified half mounted
    f"9:name=systemd:/docker/{CONTAINER}",
    f"8:pids:/docker/{CONTAINER}",
    f"4:memory:/docker/{CONTAINER}",
    f"2:cpu,cpuacct:/docker/{CONTAINER}",
    f"0::/docker/{CONTAINER}",
]


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_cgroup_v1_counters_are_found_and_read(tmp_path: Path) -> None:
    memory = _write(tmp_path / "memory/docker" / CONTAINER / "memory.oom_control",
                    "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    pids = _write(tmp_path / "pids/docker" / CONTAINER / "pids.events", "max 37\n")
    cgroups = ContainerCgroups.from_lines(HYBRID, CONTAINER, tmp_path)
    assert (cgroups.memory_events, cgroups.pids_events) == (memory, pids)
    assert cgroups.read() == LimitHits(oom_kills=2, refused_forks=37)


def test_cgroup_v2_counters_are_found_and_read(tmp_path: Path) -> None:
    _write(tmp_path / "system.slice" / f"docker-{CONTAINER}.scope" / "memory.events",
           "low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\n")
    _write(tmp_path / "system.slice" / f"docker-{CONTAINER}.scope" / "pids.events", "max 0\n")
    cgroups = ContainerCgroups.from_lines([f"0::/system.slice/docker-{CONTAINER}.scope"], CONTAINER, tmp_path)
    assert cgroups.read() == LimitHits(oom_kills=1, refused_forks=0)


def test_cgroups_of_some_other_process_or_a_removed_container_read_as_nothing(tmp_path: Path) -> None:
    _write(tmp_path / "pids/user.slice/pids.events", "max 9\n")
    assert ContainerCgroups.from_lines(["8:pids:/user.slice"], CONTAINER, tmp_path) == ContainerCgroups(None, None)
    gone = ContainerCgroups(tmp_path / "gone/memory.oom_control", tmp_path / "gone/pids.events")
    assert gone.read() == LimitHits()


# -- the faults ---------------------------------------------------------------------------------------
LIMITS = Limits(memory=3 * GIB, cpus=2.0, pids=2048)


def test_no_hit_no_message() -> None:
    assert breach_message(LIMITS, LimitHits()) is None


def test_an_oom_kill_names_the_memory_limit() -> None:
    assert breach_message(LIMITS, LimitHits(oom_kills=1)) == \
        "the environment hit its memory limit of 3g (1 process OOM-killed)"
    assert breach_message(LIMITS, LimitHits(oom_kills=3, refused_forks=5)) == \
        "the environment hit its memory limit of 3g (3 processes OOM-killed)"
    assert breach_message(LIMITS, LimitHits(), oom_killed=True) == \
        "the environment hit its memory limit of 3g (OOM-killed)"


def test_an_oom_kill_without_a_limit_says_so() -> None:
    assert breach_message(Limits(), LimitHits(oom_kills=1)) == \
        "the environment ran out of memory (1 process OOM-killed; no memory limit was set)"


def test_refused_forks_name_the_process_limit() -> None:
    assert breach_message(LIMITS, LimitHits(refused_forks=1)) == \
        "the environment reached its process limit of 2048 (1 fork refused)"


class FixedContainer:
    """The container's state as Docker reports it, which the test sets."""

    def __init__(self, status: str = "exited") -> None:
        self.status = status

    def reload(self) -> None:
        pass


class FixedGuard:
    """A guard whose verdict the test sets; the real one reads a container's cgroups."""

    def __init__(self, breach: str | None = None, status: str = "exited") -> None:
        self.verdict = breach
        self.inspected = False
        self.container = FixedContainer(status)

    def breach(self, *, inspect: bool = False) -> str | None:
        self.inspected |= inspect
        return self.verdict


def _environment(guard: FixedGuard, answer: httpx.Response | Exception) -> DockerEnvironment:
    env = DockerEnvironment("spider2v-w-1", "http://172.20.0.2:5000", {5000: 5000, 9222: 9222},
                            host="172.20.0.2", guard=guard, stop_settle=0)  # type: ignore[arg-type]

    def reply(request: httpx.Request) -> httpx.Response:
        if isinstance(answer, Exception):
            raise answer
        return answer

    env._http = httpx.Client(base_url=env.base_url, transport=httpx.MockTransport(reply))
    return env


def test_a_request_that_fails_after_a_hit_names_the_limit() -> None:
    guard = FixedGuard()
    env = _environment(guard, httpx.ConnectError("connection refused"))
    guard.verdict = None
    with pytest.raises(EnvironmentFault, match="failed"):
        env.screenshot()
    assert guard.inspected  # a failed request asks Docker too
    guard.verdict = "the environment hit its memory limit of 3g (OOM-killed)"
    with pytest.raises(EnvironmentFault, match="^spider2v-w-1: the environment hit its memory limit of 3g"):
        env.screenshot()


def test_a_limit_hit_is_a_break_from_inside() -> None:
    guard = FixedGuard("the environment hit its memory limit of 3g (OOM-killed)")
    with pytest.raises(BrokenFromInside, match="memory limit of 3g"):
        _environment(guard, httpx.ConnectError("connection refused")).screenshot()


@pytest.mark.parametrize(("cause", "status", "from_inside"), [
    (httpx.ConnectError("connection refused"), "running", True),  # the guest server was killed in there
    (httpx.ConnectError("connection refused"), "exited", False),  # the container was stopped from outside
    (httpx.ReadTimeout("timed out"), "running", False),  # a slow guest on a busy host: nobody's doing
])
def test_a_guest_gone_while_its_container_runs_is_a_break_from_inside(cause: Exception, status: str,
                                                                      from_inside: bool) -> None:
    env = _environment(FixedGuard(status=status), cause)
    with pytest.raises(EnvironmentFault) as raised:
        env.screenshot()
    assert isinstance(raised.value, BrokenFromInside) is from_inside, raised.value


def test_a_request_that_succeeds_after_a_hit_still_ends_the_task() -> None:
    """The hog was killed and the guest answered returncode -9: the environment is not intact."""
    guard = FixedGuard()
    env = _environment(guard, httpx.Response(200, json={"status": "error", "returncode": -9}))
    assert env.execute("true").returncode == -9
    guard.verdict = "the environment reached its process limit of 256 (12 forks refused)"
    with pytest.raises(EnvironmentFault, match="process limit of 256"):
        env.execute("true")


def test_guest_ports_are_reached_at_the_environments_host() -> None:
    env = _environment(FixedGuard(), httpx.Response(200))
    assert env.host_url(9222) == "http://172.20.0.2:9222"
    with pytest.raises(EnvironmentFault, match="not published"):
        env.host_url(8080)
