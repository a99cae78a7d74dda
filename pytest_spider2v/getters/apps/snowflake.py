"""Snowflake getters (reference section 3), through snowflake-connector-python.

As the original's: ``snowflake_table_to_csv`` writes ``SELECT *`` of ``database.schema.table``
(schema default ``PUBLIC``) with its column names as a header (``include_header``, default true);
``snowflake_database_schema_to_csv`` the columns of a schema (or one per database) from
INFORMATION_SCHEMA, ordered, with their types when ``include_type``; ``snowflake_execution_result``
a query's rows, as a file (``dest``) or as text (rows on lines, values joined by commas);
``snowflake_user_info`` a user's ``DESC USER`` fields (upper-case keys, no password) with the
roles granted to it; ``snowflake_function_result`` a function's value with the account's event
table set; ``snowflake_log_message`` the severity and message a logger wrote to an event table.
CSV files are written with Python's csv module, NULL as an empty field.

Deliberate difference: a query the account rejects (a table that does not exist) gives None, a
score of 0, as in the original; a connection that fails is an error of the evaluation, not a 0.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Sequence
from contextlib import closing
from typing import Any, TypedDict

from pytest_spider2v.clouds.snowflake import SnowflakeAccount, connect, quoted, snowflake_account
from pytest_spider2v.getters.builtin import local_cache_path
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import read_host_file

#: The original polls an event table three times, a minute apart, for a log line to arrive.
LOG_TRIES = 3
LOG_INTERVAL = 60.0
NO_USERS = "fakesnow has no users (DESC USER, SHOW GRANTS TO USER)"
NO_EVENTS = "fakesnow has no event tables and runs no Python functions"


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class SnowflakeSpec(TypedDict, total=False):
    settings_file: str  # the account's settings, below the settings folder


class TableSpec(SnowflakeSpec, total=False):
    database: str
    schema: str
    table: str
    include_header: bool
    dest: str


class SchemaSpec(SnowflakeSpec, total=False):
    database: str | list[str]
    schema: str
    include_type: bool
    dest: str


class ExecutionSpec(SnowflakeSpec, total=False):
    sql_script: str  # a host file, or
    sql_command: str
    database: str
    schema: str
    include_header: bool
    dest: str
    return_string: bool


class UserSpec(SnowflakeSpec, total=False):
    username: str


class EventSpec(SnowflakeSpec, total=False):
    database: str
    schema: str
    table: str  # the event table
    function: str
    logger: str


@getters.register("snowflake_table_to_csv", account="snowflake")
def snowflake_table_to_csv(ctx: TaskContext, spec: TableSpec) -> str | None:
    from snowflake.connector.errors import ProgrammingError

    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_table_to_csv")
    with closing(connect(account, database=spec["database"], schema=spec.get("schema") or "PUBLIC")) as connection:
        cursor = connection.cursor()
        try:
            cursor.execute(f"SELECT * FROM {quoted(spec['table'])}")
        except ProgrammingError:
            return None
        header = [d.name for d in cursor.description] if spec.get("include_header", True) else []
        return write_csv(ctx, spec.get("dest") or f"{spec['table']}.csv", cursor.fetchall(), header)


@getters.register("snowflake_database_schema_to_csv", account="snowflake")
def snowflake_database_schema_to_csv(ctx: TaskContext, spec: SchemaSpec) -> str | None:
    from snowflake.connector.errors import ProgrammingError

    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_database_schema_to_csv")
    databases = spec["database"] if isinstance(spec["database"], list) else [spec["database"]]
    schema = spec.get("schema") or "PUBLIC"
    with_type = bool(spec.get("include_type", False))
    header = ["database", "schema", "table", "column", *(["type"] if with_type else [])]
    rows: list[Sequence[Any]] = []
    with closing(connect(account)) as connection:
        cursor = connection.cursor()
        for number, database in enumerate(databases):
            in_schema = schema[number] if isinstance(schema, list) else schema
            try:
                cursor.execute(f"SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME"
                               f"{', DATA_TYPE' if with_type else ''} FROM {database}.INFORMATION_SCHEMA.COLUMNS "
                               f"WHERE TABLE_SCHEMA = %s ORDER BY TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME",
                               (in_schema,))
            except ProgrammingError:
                return None
            rows += cursor.fetchall()
    return write_csv(ctx, spec["dest"], rows, header)


@getters.register("snowflake_execution_result", account="snowflake")
def snowflake_execution_result(ctx: TaskContext, spec: ExecutionSpec) -> str | None:
    from snowflake.connector.errors import ProgrammingError

    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_execution_result")
    sql = (read_host_file(ctx, spec["sql_script"], "snowflake_execution_result").decode("utf-8")
           if spec.get("sql_script") else spec["sql_command"])
    with closing(connect(account)) as connection:
        cursor = connection.cursor()
        try:
            cursor.execute(sql)
        except ProgrammingError:
            return None
        header = [d.name for d in cursor.description] if spec.get("include_header", True) else []
        rows = cursor.fetchall()
    if spec.get("dest"):
        return write_csv(ctx, spec["dest"], rows, header)
    table = [header, *rows] if header else rows
    if spec.get("return_string", True):
        return "\n".join(",".join(str(value) for value in row) for row in table)
    return str(table)


@getters.register("snowflake_user_info", account="snowflake", not_emulated=NO_USERS)
def snowflake_user_info(ctx: TaskContext, spec: UserSpec) -> dict[str, Any]:
    """The user's fields and roles; and, when the task's rules name the user's PASSWORD, whether it
    signs in with it (``PASSWORD_ACCEPTED``): the original's metric tried that sign-in itself, a
    metric here only reads what the getters brought."""
    from snowflake.connector.errors import DatabaseError

    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_user_info")
    info: dict[str, Any] = {"ROLE": ["PUBLIC"]}
    with closing(connect(account)) as connection:
        cursor = connection.cursor()
        for name, value, *_ in cursor.execute(f"DESC USER {spec['username']}").fetchall():  # type: ignore[union-attr]
            if str(name).upper() != "PASSWORD":
                info[str(name).upper()] = str(value)
        info["ROLE"] += [str(row[1]) for row in cursor.execute(f"SHOW GRANTS TO USER {spec['username']}").fetchall()]  # type: ignore[union-attr]
    password = _ruled_password(ctx)
    if password is not None and "LOGIN_NAME" in info:
        user = SnowflakeAccount(account.account, info["LOGIN_NAME"], password, account.options)
        try:
            connect(user).close()
            info["PASSWORD_ACCEPTED"] = True
        except DatabaseError:
            info["PASSWORD_ACCEPTED"] = False
    return info


def _ruled_password(ctx: TaskContext) -> str | None:
    """The PASSWORD the task's ``rule`` getters give, if any."""
    expected = ctx.task.spec.evaluator.expected
    for spec in expected if isinstance(expected, list) else [expected]:
        rules = (spec.model_extra or {}).get("rules") if spec is not None and spec.type == "rule" else None
        if isinstance(rules, dict) and "PASSWORD" in rules:
            return str(rules["PASSWORD"])
    return None


@getters.register("snowflake_function_result", account="snowflake", not_emulated=NO_EVENTS)
def snowflake_function_result(ctx: TaskContext, spec: EventSpec) -> Any:
    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_function_result")
    with closing(connect(account, database=spec["database"], schema=spec.get("schema") or "PUBLIC")) as connection:
        cursor = connection.cursor()
        cursor.execute(f"ALTER ACCOUNT SET EVENT_TABLE = {spec['database']}.public.{spec['table']}")
        cursor.execute("ALTER SESSION SET LOG_LEVEL = INFO")
        row = cursor.execute(f"SELECT {spec['function']}()").fetchone()  # type: ignore[union-attr]
    return row[0] if row else None


@getters.register("snowflake_log_message", account="snowflake", not_emulated=NO_EVENTS)
def snowflake_log_message(ctx: TaskContext, spec: EventSpec) -> dict[str, str] | None:
    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_log_message")
    sql = (f"SELECT RECORD['severity_text'], VALUE FROM {spec['database']}.public.{spec['table']} "
           "WHERE RECORD_TYPE = 'LOG' AND SCOPE['name'] = %s")
    with closing(connect(account, database=spec["database"], schema=spec.get("schema") or "PUBLIC")) as connection:
        for attempt in range(LOG_TRIES):
            row = connection.cursor().execute(sql, (spec["logger"],)).fetchone()  # type: ignore[union-attr]
            if row is not None:
                return {"severity": str(row[0]).strip('"'), "message": str(row[1]).strip('"')}
            if attempt + 1 < LOG_TRIES:
                time.sleep(LOG_INTERVAL)
    return None


def write_csv(ctx: TaskContext, dest: str, rows: Sequence[Sequence[Any]], header: list[str]) -> str:
    """The rows as the original writes them (Python's csv module, NULL as an empty field), in the cache."""
    target = local_cache_path(ctx, dest)
    with open(target, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        if header:
            writer.writerow(header)
        writer.writerows(rows)
    return str(target)
