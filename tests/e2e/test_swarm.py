"""``--provider swarm`` on the lab (``scripts/swarm-lab.sh``): a Swarm of three Docker-in-Docker
nodes and a registry on this machine, on networks the script creates. The analysis image is
pushed with ``spider2v-build --push``; InfiAgent-DABench questions run with the oracle on the
cluster as they do locally, placed on all three nodes (with one more worker than there is room
for: it waits), each record names its node, each service is gone at the run's end, an image the registry lacks is
refused naming the command that pushes it, more tasks than the cluster has room for wait without
any node reserving more than it has, SIGTERM to the controller removes the run's services, a
command sent to an environment's published port without its secret is refused and logged while
the harness's tunnel is served, a task whose node is drained or killed mid-run is started over on
another node, and ``down`` leaves nothing of the lab."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.environments.provider import owner_token
from pytest_spider2v.providers.docker.provider import LABEL, OWNER_LABEL
from pytest_spider2v.providers.swarm.provider import FIRST_GATE_PORT, SwarmProvider
from pytest_spider2v.testing.factories import task_document, write_task
from tests.support.llm_server import LLMServer, Request
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
    assert all(r["integrity"]["checked"] for r in records)  # each evaluation sealed, through its node's engine
    # four workers, room for three services (1.5 of each node's 2 CPUs reserved): one waits, none fails
    assert {r["node"] for r in records} == {"node1", "node2", "node3"}, run.stdout[-3000:]
    assert "by node" in run.stdout
    manager = docker.DockerClient(base_url=cluster["SPIDER2V_SWARM_MANAGER"])
    assert not manager.services.list(filters={"label": f"{LABEL}=1"})
    assert not manager.secrets.list(filters={"label": f"{LABEL}=1"})  # the gates' secrets and sources
    assert not manager.configs.list(filters={"label": f"{LABEL}=1"})


def test_the_evidence_comes_from_the_nodes_engine_a_tampering_agent_scores_0(cluster: dict[str, str],
                                                                           tmp_path: Path) -> None:
    """Two tasks on the analysis image, one run: an honest agent writes the answer; a cheating one
    writes it and plants a Python start-up hook in its user site. The node's engine shows the hook
    (the harness reads each container's changes there), so the second scores 0, flagged."""
    hook = "/home/user/.local/lib/python3.11/site-packages/usercustomize.py"
    answer = "open('/home/user/answer.txt', 'w').write('42\\n')"
    plays = {"honest": [answer], "cheat": [answer + f"\nimport os\nos.makedirs({hook.rsplit('/', 1)[0]!r}, "
                                                  f"exist_ok=True)\nopen({hook!r}, 'w').write('print(42)\\n')"]}
    for name in plays:
        write_task(tmp_path, task_document(
            id=f"cluster-{name}", snapshot="analysis", related_apps=["terminal"], tags=["traditional_data_processing", "cli"],
            instruction=f"Write 42 to ~/answer.txt. [{name}]", config=[],
            evaluator={"func": "check_include_exclude",
                       "result": {"type": "vm_command_line", "command": "cat /home/user/answer.txt"},
                       "expected": {"type": "rule", "rules": {"include": ["42"], "exclude": []}}}))

    def reply(request: Request) -> str:
        case = next(name for name in plays if f"[{name}]" in "\n".join([*request.system_texts(), *request.texts()]))
        turn = request.turns("assistant")
        return f"```python\n{plays[case][turn]}\n```" if turn < len(plays[case]) else "DONE"

    with LLMServer(default=reply) as server:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tasks", "-n", "2", "--agent", "gpt-4o",
             "--llm-base-url", server.openai_url, "--provider", "swarm", "--retries", "1",
             "--results-dir", str(tmp_path / "results")],
            cwd=tmp_path, capture_output=True, text=True, timeout=1800,
            env={**os.environ, **cluster, "OPENAI_API_KEY": "sk-dummy"})
    records = {json.loads(p.read_text())["task_id"]: json.loads(p.read_text())
               for p in (tmp_path / "results").rglob("result.json")}
    assert set(records) == {"cluster-honest", "cluster-cheat"}, run.stdout[-3000:]
    honest, cheat = records["cluster-honest"], records["cluster-cheat"]
    assert (honest["status"], honest["score"], honest["integrity"]["checked"]) == ("passed", 1.0, True), honest["detail"]
    assert (cheat["status"], cheat["score"], cheat["attempts"]) == ("failed", 0.0, []), cheat["detail"]
    assert cheat["charged_to"]["party"] == "agent" and [f["kind"] for f in cheat["flags"]] == ["tampered"]
    assert f"{hook} (a Python start-up hook" in cheat["detail"]


def test_an_image_the_registry_lacks_is_refused_before_any_service(cluster: dict[str, str]) -> None:
    provider = SwarmProvider(owner_token(), "e2e", manager=cluster["SPIDER2V_SWARM_MANAGER"],
                             registry=cluster["SPIDER2V_SWARM_REGISTRY"],
                             node_engine=cluster["SPIDER2V_SWARM_NODE_ENGINE"])
    try:
        with pytest.raises(EnvironmentFault, match=r"spider2v-build --push 127\.0\.0\.1:5001 (desktop|clouds)"):
            provider.acquire("bigquery")
        assert not provider.client.services.list(filters={"label": f"{LABEL}=1"})
    finally:
        provider.close()


def test_more_tasks_than_room_wait_and_no_node_exceeds_its_reservation(cluster: dict[str, str], tmp_path: Path) -> None:
    """Four workers, room for three desktops (1.5 of each node's 2 CPUs reserved): the fourth
    waits in Swarm's pending state and none fails; what the engine reports running on each node
    never reserves more than the node has."""
    write_paused_tasks(tmp_path / "suite", ["a", "b", "c", "d"], seconds=12)
    run = swarm_run(tmp_path, cluster, "-n", "4")
    manager = docker.DockerClient(base_url=cluster["SPIDER2V_SWARM_MANAGER"])
    capacity = {node.id: node.attrs["Description"]["Resources"] for node in manager.nodes.list()}
    pending_seen, most_running = False, 0
    while run.poll() is None:
        placed: dict[str, list[dict[str, Any]]] = {}
        for service in manager.services.list(filters={"label": f"{LABEL}=1"}):
            try:
                tasks = service.tasks(filters={"desired-state": "running"})
            except docker.errors.NotFound:
                continue  # removed by the run between the listing and this read
            for task in tasks:
                state = task["Status"]["State"]
                pending_seen = pending_seen or state == "pending"
                if state in ("assigned", "accepted", "preparing", "starting", "running") and task.get("NodeID"):
                    placed.setdefault(task["NodeID"], []).append(task["Spec"]["Resources"]["Reservations"])
        for node, reservations in placed.items():
            assert sum(r.get("NanoCPUs", 0) for r in reservations) <= capacity[node]["NanoCPUs"]
            assert sum(r.get("MemoryBytes", 0) for r in reservations) <= capacity[node]["MemoryBytes"]
        most_running = max(most_running, sum(len(reservations) for reservations in placed.values()))
        time.sleep(0.5)
    output = run.stdout.read() if run.stdout else ""
    assert run.returncode == 0 and "4 passed" in output, output[-3000:]
    assert pending_seen and most_running == 3


def test_sigterm_to_the_controller_removes_the_runs_services(cluster: dict[str, str], tmp_path: Path) -> None:
    """As on one machine (tests/e2e/test_stopping.py): within 30 s of SIGTERM to the controller no
    service of the run remains, and each task it cut short says so."""
    write_paused_tasks(tmp_path / "suite", ["first", "second"], seconds=600)
    run = swarm_run(tmp_path, cluster, "-n", "2", start_new_session=True)
    manager = docker.DockerClient(base_url=cluster["SPIDER2V_SWARM_MANAGER"])
    owned = {"label": [f"{OWNER_LABEL}={owner_token(run.pid)}"]}
    try:
        deadline = time.monotonic() + 300
        while sum("restore" in record.get("timings", {}) for record in _records(tmp_path / "results")) < 2:
            assert run.poll() is None and time.monotonic() < deadline, "the two tasks never reached setup"
            time.sleep(1)
        os.kill(run.pid, signal.SIGTERM)
        stopped = time.monotonic()
        while manager.services.list(filters=owned):
            assert time.monotonic() - stopped < 30, manager.services.list(filters=owned)
            time.sleep(0.5)
        run.wait(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert [(r["status"], r["detail"]) for r in _records(tmp_path / "results")] == [
        ("interrupted", "the run was stopped (SIGTERM) before this task ended")] * 2


def test_a_guest_port_on_the_cluster_serves_only_the_holder_of_its_secret(cluster: dict[str, str]) -> None:
    """The node publishes the gate, not the guest server: a command sent there without the
    environment's secret is refused (and not run) and the refusal is in the service's log; the
    harness, through its tunnel, is served. The secret is in no service spec, and nothing of the
    gate outlives the service."""
    provider = SwarmProvider(owner_token(), "e2e", manager=cluster["SPIDER2V_SWARM_MANAGER"],
                             registry=cluster["SPIDER2V_SWARM_REGISTRY"],
                             node_engine=cluster["SPIDER2V_SWARM_NODE_ENGINE"])
    manager = provider.client
    try:
        env = provider.acquire("analysis")
        service = manager.services.get(env.name)
        published = service.attrs["Endpoint"]["Spec"]["Ports"]
        assert all(port["TargetPort"] >= FIRST_GATE_PORT for port in published), published
        secret = provider._secrets[env.name].decode()
        assert secret not in json.dumps(service.attrs) and secret not in json.dumps(service.tasks())

        gate = f"http://{env.host}:{env.gate_ports[5000]}"
        with pytest.raises(httpx.RemoteProtocolError):  # the gate's challenge, then its 403: no HTTP reply
            httpx.post(f"{gate}/execute", json={"command": ["touch", "/tmp/unproven"]}, timeout=30)
        served = env.execute(["sh", "-c", "test -e /tmp/unproven; echo $?"])
        assert served.returncode == 0 and served.stdout.strip() == "1"
        logs = b"".join(service.logs(stdout=True, stderr=True)).decode(errors="replace")
        assert "refused a connection from" in logs and "guest port 5000: no valid secret" in logs
        provider.release(env)
        owned = {"label": [f"{OWNER_LABEL}={provider.owner}"]}
        assert not manager.secrets.list(filters=owned) and not manager.configs.list(filters=owned)
    finally:
        provider.close()


def test_a_node_drained_mid_run_has_its_task_retried_on_another(cluster: dict[str, str], tmp_path: Path) -> None:
    """Swarm shuts a drained node's replicas down; the task whose desktop was there meets a dead
    guest, a fault, and --retries 1 starts it over on a node that takes work."""
    write_paused_tasks(tmp_path / "suite", ["first", "second", "third"], seconds=25)
    results = tmp_path / "results"
    run = swarm_run(tmp_path, cluster, "-n", "3", "--retries", "1")
    manager = docker.DockerClient(base_url=cluster["SPIDER2V_SWARM_MANAGER"])
    node2 = next(node for node in manager.nodes.list() if node.attrs["Description"]["Hostname"] == "node2")
    try:
        deadline = time.monotonic() + 300
        while not any(record.get("node") == "node2" and "restore" in record.get("timings", {})
                      for record in _records(results)):
            assert run.poll() is None and time.monotonic() < deadline, "no task was set up on node2"
            time.sleep(1)
        node2.update({**node2.attrs["Spec"], "Availability": "drain"})
        output, _ = run.communicate(timeout=900)
    finally:
        if run.poll() is None:
            run.kill()
        node2.reload()
        node2.update({**node2.attrs["Spec"], "Availability": "active"})
    assert run.returncode == 0 and "3 passed" in output, output[-3000:]
    records = _records(results)
    assert sorted(len(record["attempts"]) for record in records) == [0, 0, 1], output[-3000:]
    assert "node2" not in {record["node"] for record in records}
    assert not manager.services.list(filters={"label": f"{LABEL}=1"})


def test_a_node_killed_mid_run_has_its_task_retried_on_another(cluster: dict[str, str], tmp_path: Path) -> None:
    """Runs last: it kills node3. Each task holds its service through a setup pause, then asks its
    guest for a command; the task whose node died meets a dead guest, a fault, and --retries 1
    starts it over on a live node."""
    write_paused_tasks(tmp_path / "suite", ["first", "second", "third"], seconds=25)
    results = tmp_path / "results"
    run = swarm_run(tmp_path, cluster, "-n", "3", "--retries", "1")
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


def write_paused_tasks(root: Path, names: list[str], seconds: float) -> None:
    """Tasks of the analysis image that hold their desktop through a setup pause, then ask their
    guest for a command (so a guest that died in the pause is noticed), and pass."""
    for name in names:
        write_task(root, task_document(
            id=f"{name}-pause", snapshot="analysis", related_apps=["terminal"], tags=["traditional_data_processing", "cli"],
            config=[{"type": "sleep", "parameters": {"seconds": seconds}},
                    {"type": "execute", "parameters": {"command": ["true"]}}]))


def swarm_run(tmp_path: Path, cluster: dict[str, str], *args: str, start_new_session: bool = False) -> subprocess.Popen[str]:
    """``pytest <suite> --agent noop --provider swarm ARGS``, started (output in ``stdout``)."""
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path / "suite" / "tasks"), "--agent", "noop",
         "--provider", "swarm", "--results-dir", str(tmp_path / "results"), *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **cluster},
        start_new_session=start_new_session)
