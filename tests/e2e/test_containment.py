"""Containment of agent code, in real containers: limits, the faults naming them, and network
isolation.

A fork bomb and a memory hog are run the way an agent runs code (``run_python``) in an
environment with small limits; the host and a second environment (standing in for another
worker) must carry on, and the task must end with a fault that names the limit. An environment
on an isolated network must reach nothing but itself, while the harness still reaches its guest
ports. These tests apply to the Docker provider, whose options they use.
"""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import docker
import httpx
import pytest

import pytest_spider2v.steps.chrome  # noqa: F401  (registers google_chrome_browser)
from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.providers.docker.environment import DockerEnvironment
from pytest_spider2v.providers.docker.provider import DockerProvider
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.testing.waiting import wait_until

pytestmark = pytest.mark.e2e

MEMORY, PIDS = "512m", 256
MEMORY_HOG = """
chunks = []
while True:
    chunks.append(bytearray(64 * 2**20))  # bytearray zero-fills: every page is touched
"""
FORK_BOMB = """
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
"""
PROBE = """
import socket
try:
    socket.create_connection(({host!r}, {port}), 4).close()
    print("reached")
except OSError as exc:
    print("blocked", exc)
"""


def acquire_or_skip(provider: DockerProvider, snapshot: str) -> Environment:
    try:
        return provider.acquire(snapshot)
    except EnvironmentFault as exc:
        if "is not built" in str(exc):
            pytest.skip(str(exc))
        raise


@contextmanager
def provider(worker: str, **options: object) -> Iterator[DockerProvider]:
    try:
        made = DockerProvider(owner_token(), worker, spare=False, **options)  # type: ignore[arg-type]
    except EnvironmentFault as exc:
        if "needs iptables and root" in str(exc):
            pytest.skip(str(exc))
        raise
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(scope="module")
def limited() -> Iterator[DockerProvider]:
    """The hog's worker: small limits, so the tests are fast and the host is never at risk."""
    with provider("containment-hog", memory=MEMORY, pids=PIDS, cpus=1) as made:
        yield made


@pytest.fixture(scope="module")
def bystander() -> Iterator[Environment]:
    """Another worker's environment, with its snapshot's own limits, on the default network."""
    with provider("containment-bystander") as made:
        env = acquire_or_skip(made, "desktop")
        yield env
        made.release(env)


def carries_on(env: Environment) -> None:
    """The host can still start processes and the other environment still serves."""
    assert subprocess.run(["true"], timeout=30).returncode == 0
    assert env.screenshot()[:8] == b"\x89PNG\r\n\x1a\n"
    assert env.execute("echo alive").stdout == "alive\n"


# -- limits -----------------------------------------------------------------------------------------
def test_limits_are_applied_to_the_container(limited: DockerProvider) -> None:
    env = acquire_or_skip(limited, "desktop")
    try:
        host_config = docker.from_env().containers.get(env.name).attrs["HostConfig"]
        assert host_config["Memory"] == host_config["MemorySwap"] == 512 * 2**20
        assert (host_config["PidsLimit"], host_config["NanoCpus"]) == (PIDS, 10**9)
    finally:
        limited.release(env)


def test_a_memory_hog_ends_its_task_with_the_memory_limit(limited: DockerProvider, bystander: Environment) -> None:
    env = acquire_or_skip(limited, "desktop")
    try:
        with ThreadPoolExecutor(1) as pool:
            hog = pool.submit(env.run_python, MEMORY_HOG, timeout=120)
            assert isinstance(env, DockerEnvironment)
            wait_until(env.guard.cgroups.read, lambda counters: counters.oom_kills or hog.done(), timeout=120,
                       what="the hog to meet the limit", interval=0.2)
            carries_on(bystander)
            with pytest.raises(EnvironmentFault, match=r"hit its memory limit of 512m \(\d+ process(es)? OOM-killed\)"):
                hog.result()
        # whatever the agent does next, the task is over
        with pytest.raises(EnvironmentFault, match="memory limit of 512m"):
            env.screenshot()
    finally:
        limited.release(env)
    carries_on(bystander)


def test_a_fork_bomb_ends_its_task_with_the_process_limit(limited: DockerProvider, bystander: Environment) -> None:
    env = acquire_or_skip(limited, "desktop")
    try:
        with ThreadPoolExecutor(1) as pool:
            bomb = pool.submit(env.run_python, FORK_BOMB, timeout=20)
            assert isinstance(env, DockerEnvironment)
            wait_until(env.guard.cgroups.read, lambda counters: counters.refused_forks or bomb.done(), timeout=60,
                       what="the bomb to meet the limit", interval=0.2)
            carries_on(bystander)  # while the bomb is still going
            with pytest.raises(EnvironmentFault, match=rf"reached its process limit of {PIDS} \(\d+ forks? refused\)"):
                bomb.result()
    finally:
        limited.release(env)  # a container full of processes is removed all the same
    carries_on(bystander)


# -- network isolation ----------------------------------------------------------------------------------
@pytest.fixture
def host_listener() -> Iterator[int]:
    """A port listening on every host address, as any service on the host might."""
    server = socket.create_server(("0.0.0.0", 0))
    server.settimeout(0.5)
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                server.accept()[0].close()
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        server.close()


def probe(env: Environment, host: str, port: int) -> str:
    """Whether code in the environment can open a TCP connection, as an agent's code would try."""
    return env.run_python(PROBE.format(host=host, port=port), timeout=30).stdout.strip()


def host_address() -> str:
    """The host's address on its default route (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.connect(("192.0.2.1", 9))
        return udp.getsockname()[0]


def test_an_isolated_environment_reaches_nothing_but_the_harness_reaches_it(
        bystander: Environment, host_listener: int, make_context) -> None:
    gateway = docker.from_env().containers.get(bystander.name).attrs["NetworkSettings"]["Gateway"]
    # the probe works: on the default network, agent code reaches the host's port
    assert probe(bystander, gateway, host_listener) == "reached"
    with provider("containment-isolated", isolate_network=True) as isolated:
        network = isolated.network
        assert network is not None
        env = acquire_or_skip(isolated, "dbt")  # the desktop with app port 8080 published
        neighbour = acquire_or_skip(isolated, "desktop")
        try:
            assert isinstance(env, DockerEnvironment) and isinstance(neighbour, DockerEnvironment)
            # the harness: guest server, an app port, and Chromium's DevTools through the task step
            assert env.screenshot()[:8] == b"\x89PNG\r\n\x1a\n"
            env.launch(["python3", "-m", "http.server", "8080", "--directory", "/home/user"])
            wait_until(lambda: httpx.get(env.host_url(8080), timeout=2).status_code, lambda status: status == 200,
                       timeout=30, what="the guest's port 8080 to answer 200", retry_on=(httpx.HTTPError,))
            setup_steps.get("google_chrome_browser")(make_context(env, "chromium"), urls=["http://localhost:8080/"])
            # agent code: no internet, no DNS, no host port, no other container
            bridge_gateway = network.attrs["IPAM"]["Config"][0]["Gateway"]
            assert probe(env, "8.8.8.8", 53).startswith("blocked")
            assert probe(env, "pypi.org", 443).startswith("blocked")
            for address in (bridge_gateway, gateway, host_address()):
                assert probe(env, address, host_listener).startswith("blocked"), address
            assert probe(env, neighbour.host, 5000).startswith("blocked")
        finally:
            isolated.release(neighbour)
            isolated.release(env)
    # nothing of the isolation outlives the provider: network and firewall rule are gone
    assert not docker.from_env().networks.list(names=[network.name])
    rules = subprocess.run(["iptables", "-S", "INPUT"], capture_output=True, text=True, check=True).stdout
    assert network.attrs["Options"]["com.docker.network.bridge.name"] not in rules


def test_a_crashed_runs_isolated_network_is_cleaned_up() -> None:
    child = subprocess.Popen(["true"])
    dead_owner = owner_token(child.pid)
    child.wait()
    crashed = DockerProvider(dead_owner, "containment-crashed", spare=False, isolate_network=True)
    network = crashed.network  # the crashed run never closes its provider
    assert network is not None
    bridge = network.attrs["Options"]["com.docker.network.bridge.name"]
    with provider("containment-next-run") as next_run:
        next_run.cleanup_stale()
    assert not docker.from_env().networks.list(names=[network.name])
    rules = subprocess.run(["iptables", "-S", "INPUT"], capture_output=True, text=True, check=True).stdout
    assert bridge not in rules
