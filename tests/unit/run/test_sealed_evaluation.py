"""A task's evaluation through its witness, between the tamper checks (``run/sealed.py``,
``run/integrity.py`` through ``TaskRun``).

The environments are stand-ins whose witness is scripted: the agent's one action writes into the
witness's layer what a real action would write into the container's. Each rule has its negative
case beside it: the same change made by the setup, or a change in a place the task may change.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.environments.witness import Listener, Process
from pytest_spider2v.run import lifecycle as taskrun
from pytest_spider2v.run.agent import Observation
from pytest_spider2v.run.evaluation import Evaluation
from pytest_spider2v.run.lifecycle import TaskRun
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, start_record, task_document, write_task
from pytest_spider2v.testing.fakes import Command, FakeEnvironment, FakeProvider, FakeWitness, OneActionAgent

OUTPUT = "/home/user/out.txt"
GOLD = "/home/user/gold.txt"


@pytest.fixture(autouse=True)
def instant_first_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(taskrun, "first_observation", lambda env, with_tree: Observation(env.screenshot()))


def file_task(tmp_path: Path, *, expected: dict, postconfig: list | None = None) -> Task:
    """A task whose evaluator compares the guest's OUTPUT with ``expected``; its folder holds gold.txt."""
    document = task_document(id="t", related_apps=["terminal"], evaluator={
        "postconfig": postconfig or [], "func": "compare_text_file",
        "result": {"type": "vm_file", "path": OUTPUT, "dest": "out.txt"}, "expected": expected})
    folder = write_task(tmp_path, document).parent
    (folder / "gold.txt").write_text("right")
    return make_task(document, root=folder)


LOCAL_GOLD = {"type": "local_file", "path": "gold.txt", "dest": "gold.txt"}


def run_task(tmp_path: Path, the_task: Task, witness: FakeWitness, action: Callable[[], None],
             guest_files: dict[str, bytes] | None = None, retries: int = 1) -> tuple[Evaluation, TaskRun, FakeProvider]:
    """Run ``the_task`` once: the agent's action does ``action()`` (to the witness's layer)."""

    def execute(command: Command) -> ExecResult:
        if command[:2] == ["env", "-0"]:
            return ExecResult(0, "HOME=/home/user\0PATH=/usr/bin:/bin\0", "")
        if command[:2] == ["python3", "-c"]:
            action()
        return ExecResult(0, "", "")

    env = FakeEnvironment(screen=b"png", on_execute=execute, files=dict(guest_files or {}), witness=witness)
    provider = FakeProvider(lambda n: env)
    record = start_record(tmp_path / "record", the_task)
    settings = RunSettings(EpisodeSettings(max_steps=3, sleep_after_action=0), retries=retries)
    run = TaskRun(the_task, record, "fake", OneActionAgent, lambda: provider, settings)
    return run.outcome(), run, provider


def test_the_evaluation_reads_through_the_engine_not_the_guest(tmp_path: Path) -> None:
    """The guest server (the agent's to replace) says one thing; the engine says what is there."""
    witness = FakeWitness()
    evaluation, run, _ = run_task(tmp_path, file_task(tmp_path, expected=LOCAL_GOLD), witness,
                                  lambda: witness.touch(OUTPUT, b"right"), guest_files={OUTPUT: b"forged"})
    assert evaluation.score == 1.0
    check = run.record.result.integrity
    assert check is not None and check.checked and check.findings == ()


def test_a_replaced_system_program_scores_0_flagged_tampered_and_is_not_retried(tmp_path: Path) -> None:
    witness = FakeWitness()

    def forge() -> None:
        witness.touch(OUTPUT, b"right")  # the right output too: the tampering alone decides
        witness.touch("/usr/bin/bash", b"#!/bin/sh\necho succeed", kind="changed")

    evaluation, run, provider = run_task(tmp_path, file_task(tmp_path, expected=LOCAL_GOLD), witness, forge)
    result = run.record.result
    assert evaluation.score == 0.0 and (result.status, result.attempts) == ("failed", [])
    assert len(provider.acquired) == 1
    assert [flag.kind for flag in result.flags] == ["tampered"] and "/usr/bin/bash" in result.flags[0].reason
    assert result.charge is not None and (result.charge.party, result.charge.cause) == (
        "agent", "tampered with what the evaluation takes as given")
    assert result.integrity is not None and result.integrity.findings[0].startswith("/usr/bin/bash (a system program")
    assert witness.runs == []  # nothing ran through a program it may have replaced


def test_the_same_change_made_by_the_setup_is_not_the_agents(tmp_path: Path) -> None:
    witness = FakeWitness()
    witness.touch("/etc/profile.d/spider2v.sh", b"export X=1", kind="added")  # before the baseline
    evaluation, run, _ = run_task(tmp_path, file_task(tmp_path, expected=LOCAL_GOLD), witness,
                                  lambda: witness.touch(OUTPUT, b"right"))
    assert evaluation.score == 1.0 and run.record.result.flags == []


def test_an_allowed_change_beside_a_protected_one_passes(tmp_path: Path) -> None:
    """A service's configuration, a package added to the user's environment: the task's to change."""
    witness = FakeWitness()

    def work() -> None:
        witness.touch(OUTPUT, b"right")
        witness.touch("/etc/postgresql/15/main/pg_hba.conf", b"local all all trust", kind="changed")
        witness.touch("/home/user/.local/lib/python3.11/site-packages/nltk/__init__.py", b"")

    evaluation, run, _ = run_task(tmp_path, file_task(tmp_path, expected=LOCAL_GOLD), witness, work)
    assert evaluation.score == 1.0 and run.record.result.flags == []


def test_an_upload_to_a_path_the_agent_placed_is_tampering(tmp_path: Path) -> None:
    witness = FakeWitness()
    upload = [{"type": "copyfile_from_host_to_guest", "parameters": {"src": "gold.txt", "dest": GOLD}}]
    the_task = file_task(tmp_path, expected={"type": "vm_file", "path": GOLD, "dest": "gold.txt"}, postconfig=upload)

    def place() -> None:
        witness.touch(OUTPUT, b"forged")
        witness.touch(GOLD, b"forged")

    evaluation, run, _ = run_task(tmp_path, the_task, witness, place)
    assert evaluation.score == 0.0
    assert run.record.result.flags[0].reason == (f"{GOLD} (the evaluation writes it, and the agent had placed it there)")


def test_an_upload_to_a_path_the_agent_left_alone_is_written_through_the_engine(tmp_path: Path) -> None:
    witness = FakeWitness()
    upload = [{"type": "copyfile_from_host_to_guest", "parameters": {"src": "gold.txt", "dest": GOLD}}]
    the_task = file_task(tmp_path, expected={"type": "vm_file", "path": GOLD, "dest": "gold.txt"}, postconfig=upload)
    evaluation, run, _ = run_task(tmp_path, the_task, witness, lambda: witness.touch(OUTPUT, b"right"))
    assert evaluation.score == 1.0 and witness.files[GOLD] == b"right"


def test_an_expected_file_the_agent_placed_is_tampering_unless_the_evaluation_made_it(tmp_path: Path) -> None:
    """The evaluation makes its expected side (a golden project run); an agent that put a copy of its
    own output there before, where the evaluation fails to write, forges the comparison."""
    make_gold = [{"type": "execute", "parameters": {"command": ["true"]}}]
    the_task = file_task(tmp_path, expected={"type": "vm_file", "path": GOLD, "dest": "gold.txt"}, postconfig=make_gold)

    for evaluation_writes, score in ((False, 0.0), (True, 1.0)):
        witness = FakeWitness()
        if evaluation_writes:
            witness.on_run = lambda argv: (witness.touch(GOLD, b"right"), ExecResult(0, "", ""))[1]

        def place(witness: FakeWitness = witness) -> None:
            witness.touch(OUTPUT, b"right")
            witness.touch(GOLD, b"right")

        evaluation, run, _ = run_task(tmp_path / str(score), the_task, witness, place)
        assert evaluation.score == score, run.record.result.detail
        tampered = [flag.reason for flag in run.record.result.flags]
        assert tampered == ([] if evaluation_writes else [
            f"{GOLD} (the evaluation read it as the expected result, and the agent had placed it there)"])


def test_a_file_the_evaluation_wrote_changed_while_it_ran_is_tampering(tmp_path: Path) -> None:
    """A process the agent left rewrites the evaluation's file once it appears."""
    witness = FakeWitness()
    upload = [{"type": "copyfile_from_host_to_guest", "parameters": {"src": "gold.txt", "dest": GOLD}},
              {"type": "execute", "parameters": {"command": ["true"]}}]
    the_task = file_task(tmp_path, expected=LOCAL_GOLD, postconfig=upload)
    witness.on_run = lambda argv: (witness.touch(GOLD, b"forged"), ExecResult(0, "", ""))[1]
    evaluation, run, _ = run_task(tmp_path, the_task, witness, lambda: witness.touch(OUTPUT, b"right"))
    assert evaluation.score == 0.0
    assert run.record.result.flags[0].reason == (
        f"{GOLD} (the evaluation wrote it, and something else changed it before it was read)")


def test_a_replaced_guest_server_is_tampering_another_program_restarted_is_not(tmp_path: Path) -> None:
    for port, replacement, tampered in ((5000, Listener(5000, 99, 1000, 70, "/usr/bin/python3"), True),
                                        (9222, Listener(9222, 98, 1000, 71, "/usr/lib/chromium/chromium"), False),
                                        (9222, Listener(9222, 97, 1000, 72, "/usr/bin/python3"), True)):
        witness = FakeWitness(ports=(5000, 9222))
        witness.listening[9222] = [Listener(9222, 2, 1000, 30, "/usr/lib/chromium/chromium")]

        def replace(witness: FakeWitness = witness, port: int = port, replacement: Listener = replacement) -> None:
            witness.touch(OUTPUT, b"right")
            witness.listening[port] = [replacement]

        folder = tmp_path / f"{port}-{replacement.inode}"
        evaluation, run, _ = run_task(folder, file_task(folder, expected=LOCAL_GOLD), witness, replace)
        assert (evaluation.score == 0.0) is tampered, run.record.result.detail
        assert bool(run.record.result.flags) is tampered


def test_the_record_names_what_the_agent_left_running_and_what_the_checks_cost(tmp_path: Path) -> None:
    witness = FakeWitness(table=[Process(10, 1000, "python3 -m guest")])

    def leave() -> None:
        witness.touch(OUTPUT, b"right")
        witness.table.append(Process(77, 1000, "yes"))

    evaluation, run, _ = run_task(tmp_path, file_task(tmp_path, expected=LOCAL_GOLD), witness, leave)
    check = run.record.result.integrity
    assert evaluation.score == 1.0 and check is not None
    assert check.left_running == ("yes",) and check.seconds >= 0


def test_without_a_witness_the_record_says_the_evaluation_was_not_sealed(tmp_path: Path) -> None:
    the_task = file_task(tmp_path, expected=LOCAL_GOLD)

    def execute(command: Command) -> ExecResult:
        return ExecResult(0, "", "")

    env = FakeEnvironment(screen=b"png", on_execute=execute, files={OUTPUT: b"right"})
    record = start_record(tmp_path / "record", the_task)
    run = TaskRun(the_task, record, "fake", OneActionAgent, lambda: FakeProvider(lambda n: env),
                  RunSettings(EpisodeSettings(max_steps=3, sleep_after_action=0)))
    assert run.outcome().score == 1.0
    check = run.record.result.integrity
    assert check is not None and not check.checked and "no witness" in check.reason
