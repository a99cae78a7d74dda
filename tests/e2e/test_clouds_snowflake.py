"""The Snowflake step and getters through snowflake-connector-python, against the emulator of a
real ``snowflake`` environment (fakesnow in the clouds image, started by the first step that
needs it), with settings in the original's layout pointing at it as ``--cloud emulate`` writes
them: ``host: guest:8090``."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator

import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.getters.apps.snowflake import (
    snowflake_database_schema_to_csv,
    snowflake_execution_result,
    snowflake_table_to_csv,
)
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps.snowflake import snowflake_init
from pytest_spider2v.testing.factories import make_task
from tests.support.environments import environment_of

pytestmark = pytest.mark.e2e

SETTINGS = "evaluation_examples/settings/snowflake/settings.json"
MAKE_SHOP = [
    "CREATE DATABASE SHOP", "CREATE SCHEMA IF NOT EXISTS SHOP.PUBLIC",
    "CREATE TABLE SHOP.PUBLIC.ORDERS (ID NUMBER, CUSTOMER VARCHAR, AMOUNT FLOAT)",
    "INSERT INTO SHOP.PUBLIC.ORDERS VALUES (1, 'ana', 12.5), (2, 'bo', NULL)",
]


@pytest.fixture(scope="module")
def snowflake_env(conformance_provider: Provider) -> Iterator[Environment]:
    """One environment of the ``snowflake`` snapshot for the module (skipped when not built)."""
    with environment_of(conformance_provider, "snowflake") as environment:
        yield environment


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory, snowflake_env: Environment) -> TaskContext:
    """The task context; the module's first test makes the SHOP database that the others read."""
    root = tmp_path_factory.mktemp("snowflake")
    (root / "init.sql").write_text("-- the shop's setup\n" + ";\n".join(MAKE_SHOP) + ";\n/* done */\n")
    settings = root / "settings"
    (settings / "snowflake").mkdir(parents=True)
    (settings / "snowflake" / "settings.json").write_text(json.dumps(
        {"account": "fakesnow", "user": "spider2v", "password": "emulated", "host": "guest:8090"}))
    return TaskContext(snowflake_env, make_task(root=root), root / "cache", settings)


def rows(path: str | None) -> list[list[str]]:
    assert path is not None
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_a_script_runs_statement_by_statement_and_the_table_reads_back_with_its_header(ctx: TaskContext) -> None:
    snowflake_init(ctx, [{"type": "delete_database"}, {"type": "execute_script", "sql_script": "init.sql"}], SETTINGS)
    spec = {"settings_file": SETTINGS, "database": "SHOP", "table": "ORDERS", "dest": "orders.csv"}
    assert rows(snowflake_table_to_csv(ctx, spec)) == [["ID", "CUSTOMER", "AMOUNT"], ["1", "ana", "12.5"], ["2", "bo", ""]]
    assert rows(snowflake_table_to_csv(ctx, {**spec, "include_header": False})) == [["1", "ana", "12.5"], ["2", "bo", ""]]


def test_a_missing_table_reads_as_none(ctx: TaskContext) -> None:
    spec = {"settings_file": SETTINGS, "database": "SHOP", "table": "NO_SUCH_TABLE", "dest": "none.csv"}
    assert snowflake_table_to_csv(ctx, spec) is None


def test_a_schema_lists_its_columns_with_their_types(ctx: TaskContext) -> None:
    spec = {"settings_file": SETTINGS, "database": "SHOP", "schema": "PUBLIC", "include_type": True, "dest": "schema.csv"}
    found = rows(snowflake_database_schema_to_csv(ctx, spec))
    assert found[0] == ["database", "schema", "table", "column", "type"]
    assert [row[:4] for row in found[1:]] == [["SHOP", "PUBLIC", "ORDERS", c] for c in ("AMOUNT", "CUSTOMER", "ID")]


def test_an_execution_result_is_text_with_its_header(ctx: TaskContext) -> None:
    spec = {"settings_file": SETTINGS, "sql_command": "SELECT CUSTOMER, ID FROM SHOP.PUBLIC.ORDERS ORDER BY ID"}
    assert snowflake_execution_result(ctx, spec) == "CUSTOMER,ID\nana,1\nbo,2"


def test_deleting_a_database_that_does_not_exist_does_nothing(ctx: TaskContext) -> None:
    snowflake_init(ctx, [{"type": "delete_database", "database": "NOT_THERE"}], SETTINGS)
    spec = {"settings_file": SETTINGS, "sql_command": "SELECT COUNT(*) FROM SHOP.PUBLIC.ORDERS", "include_header": False}
    assert snowflake_execution_result(ctx, spec) == "2"


def test_the_keyfile_in_the_guest_points_at_the_emulator_as_the_guest_reaches_it(ctx: TaskContext) -> None:
    snowflake_init(ctx, [{"type": "copy_keyfile", "dest": "/tmp/keyfile.json"}], SETTINGS)
    copied = json.loads(ctx.env.download("/tmp/keyfile.json") or b"{}")
    assert (copied["host"], copied["port"], copied["protocol"]) == ("localhost", 8090, "http")


def test_an_unknown_action_is_named(ctx: TaskContext) -> None:
    with pytest.raises(StepError, match=r"snowflake_init.actions\[0\].type: 'vacuum' is not one of"):
        snowflake_init(ctx, [{"type": "vacuum"}], SETTINGS)


def test_a_database_made_with_its_schema_and_a_table_made_from_a_query(ctx: TaskContext) -> None:
    snowflake_init(ctx, [{"type": "create_database", "database": "SALES", "schema": "PUBLIC"},
                         {"type": "create_table", "database": "SALES", "table": "BIG_ORDERS",
                          "sql": "SELECT ID, AMOUNT FROM SHOP.PUBLIC.ORDERS WHERE AMOUNT > 10"}], SETTINGS)
    spec = {"settings_file": SETTINGS, "database": "SALES", "table": "BIG_ORDERS", "dest": "big.csv"}
    assert rows(snowflake_table_to_csv(ctx, spec)) == [["ID", "AMOUNT"], ["1", "12.5"]]


def test_a_stages_file_format_reads_its_files_when_the_copy_names_none(ctx: TaskContext) -> None:
    """The sample tasks' setup (1ef6464f and others): a named CSV format skipping the header, a stage
    with it, a PUT of a file with a header row, COPY without FILE_FORMAT: the header is no row. A
    stage without a format keeps Snowflake's default (SKIP_HEADER = 0), so its header is a row.
    (The clouds image's fakesnow patches, recipes/clouds/patches/fakesnow-*.patch.)"""
    ctx.host_path("people.csv").write_text("id,name\n1,ada\n2,grace\n")
    ctx.host_path("stage_format.sql").write_text(
        "CREATE OR REPLACE DATABASE PEOPLE;\n"
        "CREATE OR REPLACE SCHEMA PEOPLE.PUBLIC;\n"
        "CREATE OR REPLACE FILE FORMAT people_csv_format TYPE = csv FIELD_DELIMITER = ',' RECORD_DELIMITER = '\\n' "
        "SKIP_HEADER = 1 FIELD_OPTIONALLY_ENCLOSED_BY='\"' NULL_IF=('NA');\n"
        "CREATE OR REPLACE STAGE PEOPLE.PUBLIC.stage FILE_FORMAT = people_csv_format;\n"
        "CREATE OR REPLACE STAGE PEOPLE.PUBLIC.plain;\n"
        "CREATE OR REPLACE TABLE PEOPLE.PUBLIC.NAMED (ID VARCHAR, NAME VARCHAR);\n"
        "CREATE OR REPLACE TABLE PEOPLE.PUBLIC.PLAIN (ID VARCHAR, NAME VARCHAR);\n"
        "PUT file://people.csv @PEOPLE.PUBLIC.stage;\n"
        "PUT file://people.csv @PEOPLE.PUBLIC.plain;\n"
        "COPY INTO PEOPLE.PUBLIC.NAMED FROM @PEOPLE.PUBLIC.stage/people.csv;\n"
        "COPY INTO PEOPLE.PUBLIC.PLAIN FROM @PEOPLE.PUBLIC.plain/people.csv;\n")
    snowflake_init(ctx, [{"type": "execute_script", "sql_script": "stage_format.sql"}], SETTINGS)
    spec = {"settings_file": SETTINGS, "database": "PEOPLE", "include_header": False}
    assert sorted(rows(snowflake_table_to_csv(ctx, {**spec, "table": "NAMED", "dest": "named.csv"}))) == [
        ["1", "ada"], ["2", "grace"]]
    assert sorted(rows(snowflake_table_to_csv(ctx, {**spec, "table": "PLAIN", "dest": "plain.csv"}))) == [
        ["1", "ada"], ["2", "grace"], ["id", "name"]]
