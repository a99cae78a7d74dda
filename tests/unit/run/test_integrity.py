"""The tamper rules (``run/integrity.py``) on small lists of changes: each protected place with
its negative case, the place beside it that a task may change."""

from __future__ import annotations

import pytest

from pytest_spider2v.environments.witness import Change, FileState, Listener
from pytest_spider2v.run.integrity import (
    Baseline,
    Integrity,
    agent_changes,
    listener_findings,
    needs_a_look,
    protected,
    runs_code,
    same_content,
)
from pytest_spider2v.testing.fakes import FakeWitness

FILE = FileState(0o100644, 10, 1, 1, 1)
FOLDER = FileState(0o040755, 4096, 1, 1, 2)


def change(path: str, kind: str = "changed", state: FileState | None = FILE) -> Change:
    return Change(path, kind, None if kind == "deleted" else state)  # type: ignore[arg-type]


@pytest.mark.parametrize(("path", "kind"), [
    ("/usr/bin/bash", "changed"), ("/usr/bin/psql", "deleted"), ("/usr/lib/x86_64-linux-gnu/libpq.so.5", "added"),
    ("/bin", "changed"), ("/usr/share/postgresql-common/pg_wrapper", "changed"),
    ("/opt/spider2v/guest/server/app.py", "changed"), ("/opt/spider2v-gate.py", "changed"),
    ("/etc/profile.d/x.sh", "added"), ("/etc/bash.bashrc", "changed"), ("/etc/ld.so.preload", "added"),
    ("/etc/sudoers.d/user", "deleted"), ("/etc/passwd", "changed"), ("/etc/alternatives/python", "changed"),
    ("/usr/local/bin/spider2v-clock", "changed"), ("/usr/local/bin/dbt", "deleted"),
    ("/usr/local/lib/python3.11/dist-packages/pyautogui/__init__.py", "changed"),
    ("/opt/dbt/lib/python3.11/site-packages/dbt/main.py", "deleted"), ("/opt/dbt/bin/python3", "changed"),
    ("/opt/dbt/pyvenv.cfg", "changed"), ("/home/user/anaconda3/bin/conda", "changed"),
    ("/home/user/anaconda3/etc/profile.d/conda.sh", "changed"),
    ("/home/user/.local/lib/python3.11/site-packages/sitecustomize.py", "added"),
    ("/usr/local/lib/python3.11/dist-packages/usercustomize.py", "added"),
])
def test_what_the_harness_and_the_evaluation_take_as_given_is_protected(path: str, kind: str) -> None:
    assert protected(change(path, kind)) is not None


@pytest.mark.parametrize(("path", "kind"), [
    ("/home/user/Desktop/inventory.db", "changed"), ("/home/user/.bashrc", "changed"),
    ("/etc/postgresql/15/main/postgresql.conf", "changed"), ("/etc/hosts", "changed"),
    ("/var/lib/postgresql/15/main/base/16384/1259", "changed"), ("/tmp/x", "added"),
    ("/usr/local/bin/jupyter-nbconvert", "added"),  # a package's command, shadowing nothing (looked at apart)
    ("/usr/local/lib/python3.11/dist-packages/nltk/__init__.py", "added"),
    ("/home/user/.local/lib/python3.11/site-packages/pandas/core/frame.py", "added"),
    ("/opt/dbt/lib/python3.11/site-packages/dbt_postgres/__init__.py", "added"),
    ("/home/user/anaconda3/envs/mine/bin/python3", "added"),  # a new environment of the agent's
    ("/usr/lib", "changed"),  # a folder whose entries changed: its entries say what
])
def test_what_a_task_may_change_is_not(path: str, kind: str) -> None:
    state = FOLDER if path == "/usr/lib" else FILE
    assert protected(change(path, kind, state)) is None


def test_a_folder_that_changed_is_judged_by_its_entries_but_an_added_system_folder_is_not() -> None:
    assert protected(change("/usr/bin", "changed", FOLDER)) is None
    assert protected(change("/usr/lib/evil", "added", FOLDER)) is not None


def test_programs_added_early_on_the_search_path_and_pth_files_are_looked_at_inside() -> None:
    assert needs_a_look(change("/usr/local/bin/psql", "added")) == "shadow"
    assert needs_a_look(change("/usr/local/bin/psql", "changed")) is None  # protected() already says so
    assert needs_a_look(change("/home/user/.local/lib/python3.11/site-packages/x.pth", "added")) == "pth"
    assert needs_a_look(change("/usr/local/lib/python3.11/dist-packages/distutils-precedence.pth", "added")) is None
    assert needs_a_look(change("/opt/j/lib/python3.11/site-packages/__editable__.proj-0.1.pth", "added")) is None
    assert needs_a_look(change("/home/user/notes.pth", "added")) is None  # not in a site folder
    assert needs_a_look(change("/home/user/Desktop/report.csv", "added")) is None


def test_a_pth_file_runs_code_only_with_an_import_line() -> None:
    assert runs_code(b"/opt/lib\nimport os; os.system('echo succeed')\n")
    assert not runs_code(b"/opt/lib\n/home/user/src\n# import nothing\n")


def test_the_agents_changes_are_those_new_or_different_since_the_baseline() -> None:
    before = {"/a": change("/a"), "/b": change("/b")}
    rewritten = Change("/b", "changed", FileState(0o100644, 10, 1, 2, 1))  # a later change time
    assert agent_changes(before, [change("/a"), rewritten, change("/c", "added")]) == [
        rewritten, change("/c", "added")]


def test_the_same_content_ignores_the_change_time_and_mode_not_a_new_inode_or_mtime() -> None:
    written = FileState(0o100644, 10, 5, 5, 40)
    assert same_content(FileState(0o100755, 10, 5, 9, 40), written)  # chmod a+x by the evaluation
    assert not same_content(FileState(0o100644, 10, 5, 9, 41), written)  # replaced by another file
    assert not same_content(FileState(0o100644, 10, 7, 9, 40), written)  # written again
    assert not same_content(written, None)


def test_the_guest_servers_port_must_be_the_setups_socket_other_ports_the_same_program() -> None:
    server = [Listener(5000, 1, 1000, 8, "/usr/bin/python3.11")]
    chromium = [Listener(9222, 2, 1000, 30, "/usr/lib/chromium/chromium")]
    postgres = [Listener(5432, 3, 105, None, None)]
    before = {5000: server, 9222: chromium, 5432: postgres}
    assert listener_findings(before, before) == []
    restarted = {5000: server, 9222: [Listener(9222, 9, 1000, 90, "/usr/lib/chromium/chromium")],
                 5432: [Listener(5432, 8, 105, None, None)], 8080: [Listener(8080, 7, 1000, 5, "/usr/bin/python3")]}
    assert listener_findings(before, restarted) == []  # same programs, and a port nothing served at the start
    fake = {5000: [Listener(5000, 4, 1000, 60, "/usr/bin/python3.11")]}
    assert [f.what for f in listener_findings(before, fake)] == ["port 5000"]
    beside = {5000: [*server, Listener(5000, 5, 0, None, None)]}  # a specific address bound beside the wildcard
    assert [f.what for f in listener_findings(before, beside)] == ["port 5000"]
    by_root = {5432: [Listener(5432, 6, 0, None, None)]}
    assert [f.what for f in listener_findings(before, by_root)] == ["port 5432"]
    imitated = {9222: [Listener(9222, 6, 1000, 61, "/usr/bin/python3.11")]}
    assert "now by /usr/bin/python3.11" in listener_findings(before, imitated)[0].why


def integrity_after(witness: FakeWitness) -> Integrity:
    return Integrity(witness, Baseline({c.path: c for c in witness.changes()}, witness.listeners(witness.ports), (), {}))


def test_a_program_shadowing_one_further_down_the_path_is_tampering_a_new_program_is_not() -> None:
    witness = FakeWitness()
    witness.touch("/usr/bin/psql", b"", kind="changed")  # stands for the image's: present further down
    integrity = integrity_after(witness)
    witness.touch("/usr/local/bin/psql", b"#!/bin/sh\necho succeed")
    witness.touch("/usr/local/bin/csvlook", b"#!/usr/bin/python3")
    found = integrity.before_evaluation()
    assert [(f.what, f.why) for f in found] == [
        ("/usr/local/bin/psql", "a program added on the search path before /usr/bin/psql")]


def test_a_pth_hook_that_runs_code_is_tampering_a_path_list_is_not() -> None:
    witness = FakeWitness()
    integrity = integrity_after(witness)
    site = "/home/user/.local/lib/python3.11/site-packages"
    witness.touch(f"{site}/forge.pth", b"import builtins; builtins.print = lambda *a: None\n")
    witness.touch(f"{site}/paths.pth", b"/home/user/src\n")
    assert [f.what for f in integrity.before_evaluation()] == [f"{site}/forge.pth"]


def test_a_protected_change_while_the_evaluation_ran_is_found_after_it() -> None:
    witness = FakeWitness()
    integrity = integrity_after(witness)
    assert integrity.before_evaluation() == []
    witness.touch("/usr/bin/bash", b"", kind="changed")  # a delayed replacement fires during the evaluation
    (finding,) = integrity.after_evaluation()
    assert finding.what == "/usr/bin/bash" and finding.why.endswith("while the evaluation ran")
