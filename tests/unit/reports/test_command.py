"""``spider2v-report show``: a run's summary from its records, the same tables the run printed,
also for a run that was cut short."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v.reports.command import main
from tests.support.mind2web import card_rows, write_parquet


@pytest.fixture
def run(pytester: pytest.Pytester) -> tuple[Path, list[str]]:
    """A finished run (Mind2Web tasks: no environment needed) and the summary it printed."""
    write_parquet(pytester.path / "m2w" / "test.parquet", card_rows())
    result = pytester.runpytest_subprocess("m2w", "--agent", "noop", "-p", "no:cacheprovider")
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "spider2v summary" in line) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("summary written to"))
    return pytester.path / "results" / "noop", lines[start:end]


def test_show_prints_the_tables_the_run_printed(run: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, printed = run
    assert main(["show", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"run {folder}: 3 task records"
    assert out[1] == "manifest:" and "  agent.name: noop" in out
    assert out[-len(printed) - 1:] == ["", *printed]


def test_a_task_the_run_never_ended_counts_as_an_error(run: tuple[Path, list[str]],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = run
    record = folder / "mind2web" / "t-visa" / "result.json"
    data = json.loads(record.read_text())
    record.write_text(json.dumps({**data, "status": "running", "score": None}))
    assert main(["show", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "3 tasks: success rate 0.0% over 3 attempted (1 errors counted as 0" in out
    assert "errors (each counted as 0): 1" in out


def test_a_folder_without_records_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip() == f"spider2v-report show: no task record (result.json) in {tmp_path}"
