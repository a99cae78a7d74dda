"""Which account tasks the BigQuery emulator can serve, each rule on a small task made here with
its negative case, and the settings ``--cloud emulate`` writes for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds.emulators import BigQueryEmulator
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, task_document

CONFIG = "evaluation_examples/settings/google/gcp_config.json"
LOGIN = {"type": "bigquery_login", "parameters": {"settings_file": "evaluation_examples/settings/google/settings.json",
                                                  "config_file": CONFIG, "project_name": "bigquery-project"}}
TABLE = {"type": "create_table", "dataset_id": "d", "table_id": "t", "data_from_csv": "t.csv"}
TABLE_RESULT = {"type": "bigquery_table_to_csv", "config_file": CONFIG, "dataset_id": "d", "table_id": "t"}
FILE_RESULT = {"type": "vm_file", "path": "/home/user/answer.csv", "dest": "answer.csv"}


def bigquery_task(actions: list[dict[str, Any]], result: dict[str, Any], *, login: dict[str, Any] | None = None,
                  steps: tuple[dict[str, Any], ...] = (), root: Path | None = None) -> Task:
    config = [{"type": "bigquery_init", "parameters": {"config_file": CONFIG, "actions": actions}},
              *steps, login or LOGIN]
    document = task_document(id="bq", snapshot="bigquery", related_apps=["bigquery", "chromium"],
                             tags=["account", "gui", "data_warehousing"], config=config,
                             evaluator={"func": "compare_csv", "result": result,
                                        "expected": {"type": "local_file", "path": "gold.csv"}})
    return make_task(document, root=root)


def reasons(task: Task) -> list[str]:
    return BigQueryEmulator().task_reasons(task)


def test_a_task_whose_data_it_loads_itself_is_served() -> None:
    assert reasons(bigquery_task([{"type": "empty"}, TABLE], TABLE_RESULT)) == []


def test_a_console_link_to_another_projects_dataset_is_not_served() -> None:
    login = {**LOGIN, "parameters": {**LOGIN["parameters"], "ws": "!1m4!1m3!3m2!1sbigquery-public-data!2saustin_crime"}}
    found = reasons(bigquery_task([{"type": "empty"}, TABLE], TABLE_RESULT, login=login))
    assert found == ["opens the dataset bigquery-public-data.austin_crime (bigquery_login ws), which the emulator "
                     "does not hold"]


def test_a_key_for_the_agents_own_client_is_not_served() -> None:
    found = reasons(bigquery_task([{"type": "copy_keyfile"}], FILE_RESULT))
    assert len(found) == 1 and "copy_keyfile" in found[0]


@pytest.mark.parametrize("code, outside", [
    ('q = """SELECT city FROM `bigquery-public-data.openaq.global_air_quality`"""', ["bigquery-public-data.openaq"]),
    ('client.get_table("patents-public-data.patents.publications")', ["patents-public-data.patents"]),
    ('q = "SELECT * FROM `bigquery-project.census.people`"', []),  # the task's own project
    ('requests.get("https://hacker-news.firebaseio.com/v0/item.json")', []),  # a URL, not a table
    ("q = 'SELECT * FROM census.people'", []),  # unqualified: the client's project
], ids=["public table in SQL", "public table by the client", "own project", "a URL", "unqualified"])
def test_code_the_task_copies_in_that_reads_another_projects_dataset_is_not_served(
        tmp_path: Path, code: str, outside: list[str]) -> None:
    (tmp_path / "query.py").write_text(code + "\n")
    copy = {"type": "copyfile_from_host_to_guest", "parameters": {"src": "query.py", "dest": "/home/user/query.py"}}
    found = reasons(bigquery_task([{"type": "empty"}, TABLE], TABLE_RESULT, steps=(copy,), root=tmp_path))
    assert found == [f"its code (query.py) reads the dataset {d}, outside the task's project, which the emulator "
                     "does not hold" for d in outside]


def test_an_empty_project_with_a_file_answer_and_no_data_brought_in_reads_data_from_outside() -> None:
    found = reasons(bigquery_task([{"type": "empty"}], FILE_RESULT))
    assert len(found) == 1 and "public dataset" in found[0]


@pytest.mark.parametrize("task", [
    bigquery_task([{"type": "empty"}, TABLE], FILE_RESULT),  # the task loads a table
    bigquery_task([{"type": "empty"}], FILE_RESULT,  # the task copies its data into the guest
                  steps=({"type": "copyfile_from_host_to_guest", "parameters": {"src": "names.zip", "dest": "/home/user/names.zip"}},)),
    bigquery_task([{"type": "empty"}], {**TABLE_RESULT, "table_id": "made"}),  # the agent makes the table
], ids=["loads a table", "copies data into the guest", "answer is a table"])
def test_a_task_that_brings_its_data_or_makes_its_answer_is_served(task: Task) -> None:
    assert reasons(task) == []


def test_an_evaluation_query_using_what_the_emulator_lacks_is_named(tmp_path: Path) -> None:
    (tmp_path / "jobs.sql").write_text("SELECT query FROM `{}`.`region-us`.INFORMATION_SCHEMA.JOBS ORDER BY creation_time")
    (tmp_path / "defaults.sql").write_text("SELECT column_name, column_default FROM `{}.census.INFORMATION_SCHEMA.COLUMNS`")
    lacking = {"type": "bigquery_sql_result_to_csv", "config_file": CONFIG, "sql": "jobs.sql"}
    served = {**lacking, "sql": "defaults.sql"}  # the clouds image's bqemulator has column_default (its patch)
    assert reasons(bigquery_task([{"type": "empty"}, TABLE], lacking, root=tmp_path)) == [
        "its evaluation query (jobs.sql) needs what bqemulator lacks: it has no INFORMATION_SCHEMA.JOBS (job history)"]
    assert reasons(bigquery_task([{"type": "empty"}, TABLE], served, root=tmp_path)) == []


def test_the_settings_point_the_original_project_at_the_guests_emulator(tmp_path: Path) -> None:
    BigQueryEmulator().write_settings(tmp_path)
    projects = json.loads((tmp_path / "google" / "gcp_config.json").read_text())
    assert projects == [{"project_name": "bigquery-project", "project_id": "bigquery-project",
                         "api_endpoint": "guest:9050"}]
