"""The task table of docs/tasks/suite.md is generated from the task files and must not drift from them."""

from __future__ import annotations

from pathlib import Path

from pytest_spider2v.cli.catalog import BEGIN, END, main, project_tasks, splice, table
from tests.support.shared import REPO

ROOT = REPO


def test_docs_task_table_is_up_to_date() -> None:
    assert main([str(ROOT / "tasks"), "--check", str(ROOT / "docs" / "tasks" / "suite.md")]) == 0


def test_the_table_lists_every_task_with_its_facts() -> None:
    tasks = project_tasks(ROOT / "tasks")
    text = table(tasks, ROOT)
    assert text.count("\n| `tasks/") == len(tasks) >= 8
    first = tasks[0]
    assert f"| `tasks/{first.app}/{first.id}` |" in text
    assert "](" not in text  # no link: the site cannot resolve one to a task folder
    assert f"{first.difficulty} ({first.spec.action_number})" in text


def test_splice_replaces_only_between_the_markers() -> None:
    doc = f"intro\n{BEGIN}\nold\n{END}\noutro\n"
    assert splice(doc, "new") == f"intro\n{BEGIN}\nnew\n{END}\noutro\n"


def test_check_fails_on_a_stale_table(tmp_path: Path) -> None:
    page = tmp_path / "suite.md"
    page.write_text(f"{BEGIN}\nstale\n{END}\n")
    assert main([str(ROOT / "tasks"), "--check", str(page)]) == 1
