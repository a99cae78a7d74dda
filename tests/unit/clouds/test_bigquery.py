"""The BigQuery step and getters through google-cloud-bigquery, against a real server speaking
BigQuery's REST API (bqemulator, started from $SPIDER2V_BQEMULATOR: the command that runs it),
with a settings folder in the original's layout whose project points at it."""

from __future__ import annotations

import csv
import json
import os
import shlex
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pytest_spider2v.clouds.bigquery import bigquery_client, google_project
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.getters.apps.bigquery import bigquery_datasets, bigquery_sql_result_to_csv, bigquery_table_to_csv
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.apps.bigquery import bigquery_init
from pytest_spider2v.steps.builtin import StepError
from tests.support.factories import FakeEnvironment, make_task

CONFIG = "evaluation_examples/settings/google/gcp_config.json"
PROJECT = "spider2v-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = os.environ.get("SPIDER2V_BQEMULATOR")
    if not command:
        pytest.fail("set SPIDER2V_BQEMULATOR to the command that runs bqemulator (README \"Account tasks\")")
    rest, grpc = free_port(), free_port()
    log = tmp_path_factory.mktemp("bqemulator") / "server.log"
    with open(log, "w") as out:
        server = subprocess.Popen([*shlex.split(command), "start", "--rest-port", str(rest), "--grpc-port", str(grpc),
                                   "--project", PROJECT, "--log-level", "warning"], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{rest}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def settings_for(folder: Path, **entry: str) -> Path:
    (folder / "google").mkdir(parents=True, exist_ok=True)
    (folder / "google" / "gcp_config.json").write_text(json.dumps([{"project_name": "bigquery-project", **entry}]))
    return folder


@pytest.fixture
def ctx(tmp_path: Path, endpoint: str) -> TaskContext:
    root = tmp_path / "task"
    root.mkdir()
    (root / "orders.txt").write_text("alice,2024-01-02,30\nbob,2024-01-03,12\n")
    (root / "census.csv").write_text("state,population,share\nOhio,11,0.5\nIowa,3,0.25\n")
    (root / "view.sql").write_text("SELECT table_name FROM `{}.census.INFORMATION_SCHEMA.VIEWS`")
    settings = settings_for(tmp_path / "settings", project_id=PROJECT, api_endpoint=endpoint)
    return TaskContext(FakeEnvironment(), make_task(root=root), tmp_path / "cache", settings)


ORDERS = {"type": "create_table", "dataset_id": "customer_orders", "table_id": "orders", "data_from_csv": "orders.txt",
          "schema_from_json": [{"name": "customer_name", "type": "STRING"}, {"name": "order_date", "type": "STRING"},
                               {"name": "order_amount", "type": "INTEGER"}]}
CENSUS = {"type": "create_table", "dataset_id": "census", "table_id": "2012", "data_from_csv": "census.csv"}


def rows(path: str | None) -> list[list[str]]:
    assert path is not None
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_a_table_made_with_its_schema_is_read_back_without_header(ctx: TaskContext) -> None:
    bigquery_init(ctx, [{"type": "empty"}, ORDERS], CONFIG, "bigquery-project")
    spec = {"config_file": CONFIG, "dataset_id": "customer_orders", "table_id": "orders",
            "schema": ["customer_name", "order_amount"], "dest": "out.csv"}
    assert sorted(rows(bigquery_table_to_csv(ctx, spec))) == [["alice", "30"], ["bob", "12"]]


def test_without_a_schema_the_header_is_skipped_and_the_types_detected(ctx: TaskContext) -> None:
    bigquery_init(ctx, [{"type": "empty"}, CENSUS], CONFIG)
    spec = {"config_file": CONFIG, "dataset_id": "census", "table_id": "2012", "schema": ["*"], "dest": "out.csv"}
    assert sorted(rows(bigquery_table_to_csv(ctx, spec))) == [["Iowa", "3", "0.25"], ["Ohio", "11", "0.5"]]


def test_empty_drops_every_dataset_and_a_missing_table_reads_as_none(ctx: TaskContext) -> None:
    bigquery_init(ctx, [{"type": "empty"}, ORDERS, CENSUS], CONFIG)
    assert sorted(bigquery_datasets(ctx, {"config_file": CONFIG})) == ["census", "customer_orders"]
    bigquery_init(ctx, [{"type": "empty"}], CONFIG)
    assert bigquery_datasets(ctx, {"config_file": CONFIG}) == []
    spec = {"config_file": CONFIG, "dataset_id": "census", "table_id": "2012", "schema": ["*"], "dest": "out.csv"}
    assert bigquery_table_to_csv(ctx, spec) is None


def test_a_task_query_names_the_project_with_braces(ctx: TaskContext) -> None:
    bigquery_init(ctx, [{"type": "empty"}, CENSUS], CONFIG)
    client = bigquery_client(google_project(ctx, {"config_file": CONFIG}, "test"))
    client.query(f"CREATE VIEW `{PROJECT}.census.2012_best` AS SELECT state FROM `{PROJECT}.census.2012`").result()
    spec = {"config_file": CONFIG, "sql": "view.sql", "dest": "views.csv"}
    assert rows(bigquery_sql_result_to_csv(ctx, spec)) == [["2012_best"]]


def test_copy_keyfile_against_an_emulator_says_there_is_no_key(ctx: TaskContext) -> None:
    with pytest.raises(StepError, match="points at an emulator"):
        bigquery_init(ctx, [{"type": "copy_keyfile"}], CONFIG)


# -- the settings, read as the original lays them out (no server needed) -------------------------


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


def test_an_emulator_in_the_guest_is_reached_where_its_port_is_published(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", api_endpoint="guest:9050")
    env = FakeEnvironment(replies=[])
    env.host_url = lambda port, scheme="http": f"http://127.0.0.1:4{port}"  # type: ignore[method-assign]
    context = TaskContext(env, make_task(), tmp_path / "cache", settings)
    assert google_project(context, {"config_file": CONFIG}, "bigquery_init").api_endpoint == "http://127.0.0.1:49050"


def test_without_a_settings_folder_the_step_says_to_pass_one(tmp_path: Path) -> None:
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", None)
    with pytest.raises(AccountSettingsError, match="pass --settings-dir"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")
