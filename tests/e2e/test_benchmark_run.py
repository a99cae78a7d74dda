"""Whole benchmark runs in real containers: the acceptance of the walking skeleton.

Each test starts pytest in a subprocess exactly as a user would, then checks its records,
report and leftovers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from docker.models.containers import Container

from pytest_spider2v.testing.waiting import wait_until
from tests.support.containers import containers_of, runs

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def run_pytest(*args: str, cwd: Path = ROOT, timeout: float = 2400) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def records(results: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(results.rglob("result.json"))]


#: A few project tasks of different apps for whole-run checks. Every task's reference, noop and
#: wrong solutions are checked by the test command's `pytest tasks/ --validate -n 2` run instead.
SUBSET = ("-k", "sort-exam-results or update-etl-config or restock-low-inventory")


def project_items(*args: str) -> int:
    out = run_pytest("tasks/", "--collect-only", "-q", *args).stdout
    return sum(1 for line in out.splitlines() if "::" in line)


def test_oracle_scores_1_and_the_report_shows_every_step(tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    proc = run_pytest("tasks/", *SUBSET, "--agent", "oracle", "-n", "2", "--results-dir", str(tmp_path / "results"),
                      f"--html={html}", "--self-contained-html", f"--junitxml={tmp_path / 'junit.xml'}")
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    done = records(tmp_path / "results")
    assert len(done) == project_items(*SUBSET) == 6
    assert {(r["status"], r["score"]) for r in done} == {("passed", 1.0)}
    steps = sum(len(r["steps"]) for r in done)
    report = html.read_text()
    # every step's screenshot (plus each task's first observation) is embedded in the report
    assert report.count("data:image/jpeg;base64,") >= steps + len(done)
    assert "spider2v summary" in proc.stdout
    assert (tmp_path / "junit.xml").read_text().count("<testcase") == len(done)


def test_noop_fails_with_score_0_and_none_errors(tmp_path: Path) -> None:
    proc = run_pytest("tasks/", *SUBSET, "--agent", "noop", "-n", "2", "--results-dir", str(tmp_path))
    done = records(tmp_path)
    assert len(done) == project_items(*SUBSET)
    assert {(r["status"], r["score"]) for r in done} == {("failed", 0.0)}
    assert " error" not in proc.stdout.splitlines()[-1], proc.stdout[-3000:]
    assert proc.returncode == 1


def write_task(root: Path, task_id: str, config: list, check: str, include: str) -> None:
    """A tiny project task whose evaluator runs a shell check in the guest."""
    folder = root / "tasks" / "terminal" / task_id
    folder.mkdir(parents=True)
    (folder / "task.json").write_text(json.dumps({
        "id": task_id, "snapshot": "desktop", "instruction": "Nothing to do.", "source": [],
        "related_apps": ["terminal"], "tags": ["traditional_data_processing", "cli"], "action_number": 1,
        "config": config,
        "evaluator": {"func": "check_include_exclude",
                      "result": {"type": "vm_command_line", "command": check, "shell": True},
                      "expected": {"type": "rule", "rules": {"include": [include], "exclude": []}}},
    }))


LEAK = "/home/user/Desktop/leak.txt"


def test_each_task_starts_from_a_pristine_snapshot_on_the_same_worker(tmp_path: Path) -> None:
    write_task(tmp_path, "a-writes", [{"type": "execute", "parameters": {"command": f"echo x > {LEAK}", "shell": True}}],
               f"test -e {LEAK} && echo present || echo absent", "present")
    write_task(tmp_path, "b-checks", [], f"test -e {LEAK} && echo present || echo absent", "absent")
    proc = run_pytest("tasks", "--agent", "noop", "-v", "--results-dir", str(tmp_path / "results"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert "a-writes[abstract] PASSED" in proc.stdout and "b-checks[abstract] PASSED" in proc.stdout


def test_bad_task_files_are_collection_errors_and_the_others_still_run(tmp_path: Path) -> None:
    write_task(tmp_path, "good", [], "echo fine", "fine")
    broken = tmp_path / "tasks" / "terminal" / "broken" / "task.json"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"id": "broken", "snapshot": "desktop",,}')
    write_task(tmp_path, "bad-metric", [], "echo x", "x")
    bad = tmp_path / "tasks" / "terminal" / "bad-metric" / "task.json"
    bad.write_text(bad.read_text().replace("check_include_exclude", "check_include_exclud"))
    proc = run_pytest("tasks", "--agent", "noop", "--results-dir", str(tmp_path / "results"), cwd=tmp_path)
    out = proc.stdout
    assert "tasks/terminal/broken/task.json: invalid JSON at line 1" in out
    assert "tasks/terminal/bad-metric/task.json: task 'bad-metric': field 'evaluator.func': unknown metric" in out
    assert "1 passed, 2 errors" in out.splitlines()[-1]
    assert proc.returncode == 1


def as_from_a_terminal() -> None:
    """Ctrl-C's default in the run, as a terminal gives it. A shell without job control (CI, a
    script's `cmd &`) starts background commands with SIGINT ignored, children inherit that,
    and Python then installs no KeyboardInterrupt handler: the run would rightly ignore Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_and_wait_for_container(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=as_from_a_terminal)

    def started_containers() -> list[Container]:
        assert proc.poll() is None, "the run ended before starting a container"
        return containers_of(proc.pid)

    wait_until(started_containers, timeout=300, what="a container of the run")
    return proc


def slow_task(root: Path) -> None:
    write_task(root, "slow", [{"type": "execute", "parameters": {"command": "sleep 120"}}], "echo x", "x")


def test_ctrl_c_removes_the_runs_containers(tmp_path: Path) -> None:
    """Ctrl-C while a task is being set up (as a user would press it, mid-task)."""
    slow_task(tmp_path)
    proc = start_and_wait_for_container(["tasks", "--agent", "noop", "--results-dir", str(tmp_path / "r")], tmp_path)
    wait_until(lambda: any(runs(c, "sleep 120") for c in containers_of(proc.pid)), timeout=120,
               what="the setup step (sleep 120) running in the run's container")
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    assert containers_of(proc.pid) == []


def test_a_crashed_runs_leftovers_are_removed_at_the_next_start(tmp_path: Path) -> None:
    slow_task(tmp_path)
    proc = start_and_wait_for_container(["tasks", "--agent", "noop", "--results-dir", str(tmp_path / "r")], tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert containers_of(proc.pid), "a killed run leaves its container behind"
    write_task(tmp_path / "next", "quick", [], "echo x", "x")
    run_pytest("tasks", "--agent", "noop", "--results-dir", str(tmp_path / "r2"), cwd=tmp_path / "next")
    assert containers_of(proc.pid) == []


def test_resume_keeps_finished_tasks_and_reruns_the_rest(tmp_path: Path) -> None:
    write_task(tmp_path, "done-before", [], "echo fine", "fine")
    results = tmp_path / "results"
    first = run_pytest("tasks", "--agent", "noop", "--results-dir", str(results), cwd=tmp_path)
    assert first.returncode == 0, first.stdout[-3000:]
    (before,) = records(results)
    write_task(tmp_path, "added-later", [], "echo fine", "fine")
    second = run_pytest("tasks", "--agent", "noop", "--resume", "--results-dir", str(results), "-v", cwd=tmp_path)
    assert second.returncode == 0, second.stdout[-3000:]
    after = {r["task_id"]: r for r in records(results)}
    assert after["done-before"]["timings"]["started"] == before["timings"]["started"]  # not run again
    assert after["added-later"]["status"] == "passed"
    assert "done-before[abstract] PASSED" in second.stdout


def test_a_task_whose_container_dies_mid_episode_passes_on_its_retry(tmp_path: Path) -> None:
    """--retries: the container is killed while the first attempt's episode runs; the task starts
    over on a fresh environment, scores 1, and its record keeps the lost attempt."""
    marker = "/home/user/Desktop/done.txt"
    write_task(tmp_path, "survives", [], f"cat {marker}", "finished")
    folder = tmp_path / "tasks" / "terminal" / "survives"
    (folder / "solution.py").write_text(
        '# %% a long first action, during which the test kills the container\n'
        'import subprocess\nsubprocess.run(["sleep", "21"])\n'
        f'# %%\nopen("{marker}", "w").write("finished")\n'
    )
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tasks", "--agent", "oracle",
                             "--retries", "1", "-k", "abstract", "--results-dir", str(tmp_path / "r")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def kill_during_the_first_action() -> str | None:
        """The id of the container killed while the first action runs in it; None while it does not yet."""
        assert proc.poll() is None, "the run ended before its first action"
        busy = next((c for c in containers_of(proc.pid) if runs(c, "sleep 21")), None)
        if busy is not None:
            busy.kill()
        return None if busy is None else busy.id

    wait_until(kill_during_the_first_action, timeout=300, what="the first action (sleep 21) to run")
    out, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, out[-4000:]
    (record,) = records(tmp_path / "r")
    assert (record["status"], record["score"]) == ("passed", 1.0)
    (lost,) = record["attempts"]
    assert lost["attempt"] == 1 and "EnvironmentFault" in lost["detail"], lost
    attempt_dir = next((tmp_path / "r").rglob("attempt_1"))
    assert (attempt_dir / "step_000.png").is_file()  # the lost attempt's first observation is kept
    assert [s["index"] for s in record["steps"]] == [1, 2, 3]  # the retry's own steps: two cells, then DONE
