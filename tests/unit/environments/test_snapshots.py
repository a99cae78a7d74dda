"""Provider plumbing that needs no Docker: owner tokens and the snapshot -> recipe mapping."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_spider2v.environments.provider import owner_alive, owner_token
from pytest_spider2v.environments.snapshots import BASE_PORTS, load_snapshots


def test_owner_token_tells_a_live_process_from_a_dead_one() -> None:
    assert owner_alive(owner_token())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    token = owner_token(child.pid)
    child.wait()
    assert not owner_alive(token)


def test_a_reused_pid_with_another_start_time_is_not_the_owner() -> None:
    pid, _, start = owner_token().partition(":")
    assert not owner_alive(f"{pid}:{int(start) + 1}")


def test_tokens_that_cannot_be_judged_count_as_alive() -> None:
    assert owner_alive("e2e-helper")


def test_snapshots_short_and_long_forms(tmp_path: Path) -> None:
    (tmp_path / "snapshots.yaml").write_text("snapshots:\n  excel: desktop\n  dbt:\n    recipe: desktop\n    ports: [8080]\n")
    snaps = load_snapshots(tmp_path)
    assert snaps["excel"].image == "spider2v/desktop:latest"
    assert snaps["excel"].ports == BASE_PORTS
    assert snaps["dbt"].ports == (*BASE_PORTS, 8080)


def test_a_snapshot_without_recipe_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "snapshots.yaml").write_text("snapshots:\n  broken: {ports: [1]}\n")
    with pytest.raises(ValueError, match="snapshot 'broken' needs a recipe name"):
        load_snapshots(tmp_path)


def test_the_shipped_mapping_covers_the_project_and_sample_snapshots() -> None:
    assert {"desktop", "excel", "dbt", "calc"} <= set(load_snapshots())
