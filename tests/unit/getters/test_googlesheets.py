"""googlesheet_active_file: which spreadsheet the active tab shows (the download needs the
internet and is verified only with an account)."""

from __future__ import annotations

from pathlib import Path

from pytest_spider2v.getters.apps.googlesheets import googlesheet_active_file, sheet_id
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.fakes import FakeEnvironment


def test_sheet_id_is_read_from_the_address() -> None:
    assert sheet_id("https://docs.google.com/spreadsheets/d/1AbC-x_9/edit#gid=0") == "1AbC-x_9"
    assert sheet_id("https://docs.google.com/spreadsheets/d/1AbC-x_9") == "1AbC-x_9"
    assert sheet_id("https://docs.google.com/document/d/1AbC/edit") is None
    assert sheet_id("https://drive.google.com/drive/my-drive") is None


def test_a_tab_without_a_sheet_gives_none(tmp_path: Path) -> None:
    tree = ('<desktop-frame><application name="Chromium"><entry name="Address and search bar">'
            "drive.google.com/drive/my-drive</entry></application></desktop-frame>")
    ctx = TaskContext(FakeEnvironment(tree=tree), make_task(), tmp_path / "cache", None)
    assert googlesheet_active_file(ctx, {"type": "googlesheet_active_file", "dest": "sheet.xlsx"}) is None
