"""The BigQuery step and getters through google-cloud-bigquery, against the emulator of a real
``bigquery`` environment (bqemulator in the clouds image, started by the first step that needs
it), with settings in the original's layout whose project points at it as ``--cloud emulate``
writes them: ``api_endpoint: guest:9050``."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_spider2v.clouds.bigquery import bigquery_client, google_project
from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.getters.apps.bigquery import bigquery_datasets, bigquery_sql_result_to_csv, bigquery_table_to_csv
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps.bigquery import bigquery_init
from pytest_spider2v.testing.factories import make_task
from tests.support.environments import environment_of

pytestmark = pytest.mark.e2e

CONFIG = "evaluation_examples/settings/google/gcp_config.json"
PROJECT = "bigquery-project"  #: the emulator's project (the clouds image starts it so)


@pytest.fixture(scope="module")
def bigquery_env(conformance_provider: Provider) -> Iterator[Environment]:
    """One environment of the ``bigquery`` snapshot for the module (skipped when not built)."""
    with environment_of(conformance_provider, "bigquery") as environment:
        yield environment


def settings_for(folder: Path, **entry: str) -> Path:
    (folder / "google").mkdir(parents=True, exist_ok=True)
    (folder / "google" / "gcp_config.json").write_text(json.dumps([{"project_name": "bigquery-project", **entry}]))
    return folder


@pytest.fixture
def ctx(tmp_path: Path, bigquery_env: Environment) -> TaskContext:
    root = tmp_path / "task"
    root.mkdir()
    (root / "orders.txt").write_text("alice,2024-01-02,30\nbob,2024-01-03,12\n")
    (root / "census.csv").write_text("state,population,share\nOhio,11,0.5\nIowa,3,0.25\n")
    (root / "view.sql").write_text("SELECT table_name FROM `{}.census.INFORMATION_SCHEMA.VIEWS`")
    (root / "defaults.sql").write_text("SELECT column_name, column_default FROM `{}.census.INFORMATION_SCHEMA.COLUMNS` "
                                       "WHERE table_name = '2012'")
    settings = settings_for(tmp_path / "settings", project_id=PROJECT, api_endpoint="guest:9050")
    return TaskContext(bigquery_env, make_task(root=root), tmp_path / "cache", settings)


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


def test_a_columns_default_set_as_the_console_sets_it_is_read_from_information_schema(ctx: TaskContext) -> None:
    """The clouds image's patch of bqemulator (recipes/clouds/patches/): a default given in the
    table's schema (tables.patch, the console's "Edit schema") is kept, given back by tables.get,
    and read as BigQuery's INFORMATION_SCHEMA.COLUMNS gives it: the text NULL where there is none."""
    from google.cloud import bigquery

    bigquery_init(ctx, [{"type": "empty"}, CENSUS], CONFIG)
    spec = {"config_file": CONFIG, "sql": "defaults.sql", "dest": "defaults.csv"}
    assert rows(bigquery_sql_result_to_csv(ctx, spec)) == [["state", "NULL"], ["population", "NULL"], ["share", "NULL"]]
    client = bigquery_client(google_project(ctx, {"config_file": CONFIG}, "test"))
    table = client.get_table(f"{PROJECT}.census.2012")
    table.schema = [bigquery.SchemaField(f.name, f.field_type, default_value_expression="0" if f.name == "population"
                                         else None) for f in table.schema]
    client.update_table(table, ["schema"])
    assert [f.default_value_expression for f in client.get_table(f"{PROJECT}.census.2012").schema] == [None, "0", None]
    assert rows(bigquery_sql_result_to_csv(ctx, spec)) == [["state", "NULL"], ["population", "0"], ["share", "NULL"]]


def test_copy_keyfile_against_an_emulator_says_there_is_no_key(ctx: TaskContext) -> None:
    with pytest.raises(StepError, match="points at an emulator"):
        bigquery_init(ctx, [{"type": "copy_keyfile"}], CONFIG)
