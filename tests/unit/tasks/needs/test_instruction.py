"""Reading a task's instruction for the modules it asks the agent to write and for whether it
asks for code to run (the needs analysis's two instruction rules)."""

from __future__ import annotations

import pytest

from pytest_spider2v.tasks.model import VERBOSE_FOOTER, VERBOSE_HEADER
from pytest_spider2v.tasks.needs.instruction import asks_for_result, asks_to_run, modules_named


@pytest.mark.parametrize(("text", "modules"), [
    ("Create jobs.py beside definitions.py.", {"jobs", "definitions"}),
    ("Define the job in `hacker_news/jobs.py`.", {"hacker_news", "jobs"}),
    ("Write a new Python module named 'etl_utils' for the cleaning.", {"etl_utils"}),
    ("Run it; it fails with ModuleNotFoundError: No module named 'nltk'.", set()),
    ("Install the package pandas and open data.csv.", set()),
])
def test_modules_named(text: str, modules: set[str]) -> None:
    assert modules_named(text) == modules


@pytest.mark.parametrize(("text", "runs"), [
    ("Help me run all cells in this notebook.", True),
    ("Find baby names that appear in all recorded years.", True),
    ("Add codes to the existing cells, then execute the notebook and save it.", True),
    ("Open the notebook analysis.ipynb in JupyterLab at port 1036.", False),
    ("This notebook has been run and I want to clear all its output.", False),
    ("Copy the code into one cell; you don't need to run it.", False),
    ("You don't need to run it. Then plot the prices.", True),
])
def test_asks_to_run_or_for_a_result_of_running_code(text: str, runs: bool) -> None:
    assert (asks_to_run(text) or asks_for_result(text)) is runs


@pytest.mark.parametrize(("text", "runs", "result"), [
    ("Help me run all cells in this notebook.", True, False),
    ("Complete the #TODO parts of the notebook.", False, True),
    ("Complete the #TODO parts, then execute the notebook.", True, True),
    ("Clear all outputs of the notebook.", False, False),
    # a verbose variant's wrapping ("... how to complete it:") asks for nothing; its tutorial is the task's
    (f"Clear all outputs of the notebook.{VERBOSE_HEADER}1. Click Edit.{VERBOSE_FOOTER}", False, False),
    (f"Clear all outputs of the notebook.{VERBOSE_HEADER}1. Click Run All Cells.{VERBOSE_FOOTER}", True, False),
])
def test_asks_to_run_or_for_a_result(text: str, runs: bool, result: bool) -> None:
    assert (asks_to_run(text), asks_for_result(text)) == (runs, result)
