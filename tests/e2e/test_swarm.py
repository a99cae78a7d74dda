"""``--provider swarm`` on the lab (``scripts/swarm-lab.sh``): a Swarm of three Docker-in-Docker
nodes and a registry on this machine, on networks the script creates. The analysis image is
pushed with ``spider2v-build --push``; InfiAgent-DABench questions run with the oracle on the
cluster as they do locally, placed on all three nodes (with one more worker than there is room
for: it waits), each record names its node, each service is gone at the run's end, an image the registry lacks is
refused naming the command that pushes it, a task whose node is killed mid-run is started over on
another node, and ``down`` leaves nothing of the lab."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import pytest

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.providers.docker.provider import LABEL
from pytest_spider2v.providers.swarm.provider import SwarmProvider
from tests.support.factories import task_document, write_task
from tests.support.shared import require, shared

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LAB = ROOT / "scripts" / "swarm-lab.sh"
LAB_LABEL = "spider2v-lab=1"
QUESTIONS = ("-k", "q0- or q5- or q6- or q8- or q734-")


def lab(command: str) -> str:
    done = subprocess.run(["bash", str(LAB), command], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, str]]:
    """The lab, up for the module's tests with the analysis image pushed, and down after; its
    ``env`` as a dict."""
    try:
        settings = dict(line.split("=", 1) for line in lab("up").split())
        pushed = subprocess.run([sys.executable, "-m", "pytest_spider2v.cli.build", "--push",
                                 settings["SPIDER2V_SWARM_REGISTRY"], "analysis"], cwd=ROOT, capture_output=True,
                                text=True, timeout=1800)
        assert pushed.returncode == 0 and "pushed as" in pushed.stdout, pushed.stdout[-2000:] + pushed.stderr[-2000:]
        yield settings
    finally:
        lab("down")
        client = docker.from_env()
        assert not client.containers.list(all=True, filters={"label": LAB_LABEL})
        assert not client.volumes.list(filters={"label": LAB_LABEL})
        assert not client.networks.list(filters={"label": LAB_LABEL})


@pytest.mark.sample
def test_dabench_questions_run_on_the_cluster_and_leave_no_service(cluster: dict[str, str], tmp_path: Path) -> None:
    dev_set = require(shared("infiagent-dabench"))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(dev_set), *QUESTIONS, "--agent", "oracle",
         "-n", "4", "--provider", "swarm", "--results-dir", str(tmp_path / "results")],
        cwd=ROOT, capture_output=True, text=True, timeout=1800, env={**os.environ, **cluster})
    assert run.returncode == 0 and "5 passed" in run.stdout, run.stdout[-3000:]
    records = [json.loads(path.read_text()) for path in (tmp_path / "results").rglob("result.json")]
    assert sorted(r["status"] for r in records) == ["passed"] * 5
    # four workers, room for three services (1.5 of each node's 2 CPUs reserved): one waits, none fails
    assert {r["node"] for r in records} == {"node1", "node2", "node3"}, run.stdout[-3000:]
    assert "by node" in run.stdout
    manager = docker.DockerClient(base_url=cluster["SPIDER2V_SWARM_MANAGER"])
    assert not manager.services.list(filters={"label": f"{LABEL}=1"})


def test_an_image_the_registry_lacks_is_refused_before_any_service(cluster: dict[str, str]) -> None:
    provider = SwarmProvider(owner_token(), "e2e", manager=cluster["SPIDER2V_SWARM_MANAGER"],
                             registry=cluster["SPIDER2V_SWARM_REGISTRY"])
    try:
        with pytest.raises(EnvironmentFault, match=r"spider2v-build --push 127\.0\.0\.1:5001 (desktop|clouds)"):
            provider.acquire("bigquery")
        assert not provider.client.services.list(filters={"label": f"{LABEL}=1"})
    finally:
        provider.close()


def test_a_node_killed_mid_run_has_its_task_retried_on_another(cluster: dict[str, str], tmp_path: Path) -> None:
    """Runs last: it kills node3. Each task holds its service through a setup pause, then asks its
    guest for a command; the task whose node died meets a dead guest, a fault, and --retries 1
    starts it over on a live node."""
    for name in ("first", "second", "third"):
        write_task(tmp_path / "suite", task_document(
            id=f"{name}-pause", snapshot="analysis", related_apps=["terminal"], tags=["traditional_data_processing", "cli"],
            config=[{"type": "sleep", "parameters": {"seconds": 25}}, {"type": "execute", "parameters": {"command": ["true"]}}]))
    results = tmp_path / "results"
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "suite" / "tasks"), "--agent", "noop",
         "-n", "3", "--retries", "1", "--provider", "swarm", "--results-dir", str(results)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **cluster})
    manager = docker.DockerClient(base_url=cluster["SPIDER2V_SWARM_MANAGER"])
    try:
        deadline = time.monotonic() + 300
        while not any(record.get("node") == "node3" and "restore" in record.get("timings", {})  # in its setup pause
                      for record in _records(results)):
            assert run.poll() is None and time.monotonic() < deadline, "no task was set up on node3"
            time.sleep(1)
        docker.from_env().containers.get("spider2v-lab-node3").kill()
        output, _ = run.communicate(timeout=900)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0 and "3 passed" in output, output[-3000:]
    records = _records(results)
    assert sorted(len(record["attempts"]) for record in records) == [0, 0, 1], output[-3000:]
    assert "node3" not in {record["node"] for record in records}
    assert not manager.services.list(filters={"label": f"{LABEL}=1"})


def _records(results: Path) -> list[dict[str, Any]]:
    found = []
    for path in results.rglob("result.json"):
        found.append(json.loads(path.read_text()))  # written by rename: never half a file
    return found
