"""The BigQuery settings, read as the original lays them out (``gcp_config.json`` under
--settings-dir): which project, which key, which endpoint; no server needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v.clouds.bigquery import google_project
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.environments.base import EnvironmentFault, ExecResult
from pytest_spider2v.run.task_context import TaskContext
from tests.support.factories import FakeEnvironment, make_task

CONFIG = "evaluation_examples/settings/google/gcp_config.json"


def settings_for(folder: Path, **entry: str) -> Path:
    (folder / "google").mkdir(parents=True, exist_ok=True)
    (folder / "google" / "gcp_config.json").write_text(json.dumps([{"project_name": "bigquery-project", **entry}]))
    return folder



def test_a_project_with_a_key_names_the_key_file_under_the_settings_folder(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", keyfile_path="evaluation_examples/settings/google/{project_id}.json")
    (settings / "google" / "p-1.json").write_text("{}")
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", settings)
    project = google_project(context, {"config_file": CONFIG}, "bigquery_init")
    assert (project.project_id, project.keyfile, project.api_endpoint) == ("p-1", settings / "google" / "p-1.json", None)
    assert str(settings) not in repr(project)


@pytest.mark.parametrize(("entry", "message"), [
    ({"project_id": "p-1", "keyfile_path": "evaluation_examples/settings/google/missing.json"}, "no google/missing.json"),
    ({"keyfile_path": "x.json"}, "has no 'project_id'"),
])
def test_a_settings_defect_names_the_file_and_field(tmp_path: Path, entry: dict[str, str], message: str) -> None:
    settings = settings_for(tmp_path, **entry)
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", settings)
    with pytest.raises(AccountSettingsError, match=message):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


def test_a_template_left_with_comments_is_named(tmp_path: Path) -> None:
    (tmp_path / "google").mkdir()
    (tmp_path / "google" / "gcp_config.json").write_text('[{"project_name": "bigquery-project", // DO NOT MODIFY\n}]')
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", tmp_path)
    with pytest.raises(AccountSettingsError, match=r"gcp_config.json is not JSON .*// comments"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


def test_an_emulator_in_the_guest_is_started_and_reached_where_its_port_is_published(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", api_endpoint="guest:9050")
    env = FakeEnvironment(replies=[ExecResult(0, "bigquery: ready in 4.1 s", "")])
    env.host_url = lambda port, scheme="http": f"http://127.0.0.1:4{port}"  # type: ignore[method-assign]
    context = TaskContext(env, make_task(), tmp_path / "cache", settings)
    assert google_project(context, {"config_file": CONFIG}, "bigquery_init").api_endpoint == "http://127.0.0.1:49050"
    assert env.commands == [["spider2v-service", "start", "bigquery"]]


def test_an_emulator_that_does_not_start_is_a_fault_of_the_environment(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", api_endpoint="guest:9050")
    env = FakeEnvironment(replies=[ExecResult(1, "", "spider2v-service: bigquery not ready after 180 s")])
    context = TaskContext(env, make_task(), tmp_path / "cache", settings)
    with pytest.raises(EnvironmentFault, match="bigquery emulator did not start.*not ready after 180 s"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


def test_without_a_settings_folder_the_step_says_to_pass_one(tmp_path: Path) -> None:
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", None)
    with pytest.raises(AccountSettingsError, match="pass --settings-dir"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")
