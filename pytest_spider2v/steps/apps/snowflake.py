"""Snowflake setup steps: ``snowflake_init`` and ``snowflake_login`` (reference section 2.2),
through snowflake-connector-python on the account of ``settings/snowflake/settings.json``.

``snowflake_init``'s actions, as the original's:

- ``delete_database`` (``database``: one name or a list; none: every database but ``SNOWFLAKE``
  and ``SNOWFLAKE_SAMPLE_DATA``), ``delete_warehouse`` (likewise, keeping ``COMPUTE_WH``) and
  ``delete_user`` (``username``; none: every user but ``SNOWFLAKE`` and the current one): each
  one that ``SHOW`` lists is dropped;
- ``create_database`` (``database``, optional ``schema``, ``delete_first`` default true) and
  ``create_table`` (``database``, ``schema`` default ``PUBLIC``, ``table``, ``sql``: the table is
  created as that query's result);
- ``execute_script``: a task's SQL file (``sql_script``) without comments, split on ``;``, or
  ``sql_command`` (one or a list), run in order; a ``PUT file://<path>`` names a task file as the
  original's checkout-relative path, so the path is resolved against the task's root. With
  ``query_ids_path``, the id Snowflake gave each statement is written, a line each, to that file
  of the task's cache, which a later step copies to the guest as ``cache/<task id>/<file>``;
- ``copy_keyfile``: the settings file itself to ``dest`` in the guest (default
  ``/home/user/keyfile.json``), for the agent's own client; an emulator's ``guest:`` host is
  written as the guest sees it, and a key pair's ``private_key_file`` is copied beside it and
  named as the guest sees it.

Deliberate differences: an action that fails fails the step (the original logged the error and
went on, leaving the account as it found it), and what is dropped is what ``SHOW`` lists, by its
exact (quoted) name, so a lower-case name (created quoted) is dropped too.

``snowflake_login`` signs in to Snowsight in the guest's Chromium with the same settings: its form
takes the user's password, so settings that sign in with a key pair or a token only are an error
naming the file and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from contextlib import closing
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from pytest_spider2v.clouds.settings import GUEST_PREFIX, read_json, settings_path
from pytest_spider2v.clouds.snowflake import (
    DEFAULT_SETTINGS,
    EMULATOR_PORT,
    connect,
    console_password,
    snowflake_account,
)
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError, read_host_file
from pytest_spider2v.steps.consoles import console_page, snowflake_sign_in

if TYPE_CHECKING:
    from snowflake.connector import SnowflakeConnection

STEP = "snowflake_init"
CONSOLE_URL = "https://app.snowflake.com"
DEFAULT_KEYFILE_DEST = "/home/user/keyfile.json"
PRESERVED_DATABASES = frozenset({"SNOWFLAKE", "SNOWFLAKE_SAMPLE_DATA"})
PRESERVED_WAREHOUSES = frozenset({"COMPUTE_WH"})
COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)
LOCAL_FILE = re.compile(r"file://(\S+)")

Action = Callable[[TaskContext, "SnowflakeConnection", dict[str, Any], str], None]


@setup_steps.register(STEP, account="snowflake")
def snowflake_init(ctx: TaskContext, actions: list[dict[str, Any]], settings_file: str | None = None) -> None:
    account = snowflake_account(ctx, settings_file, STEP)
    with closing(connect(account)) as connection:
        for number, action in enumerate(actions):
            where = f"{STEP}.actions[{number}]"
            run = ACTIONS.get(str(action.get("type")))
            if run is None:
                raise StepError(f"{where}.type: {action.get('type')!r} is not one of {', '.join(ACTIONS)}")
            params = {key: value for key, value in action.items() if key != "type"}
            if run is copy_keyfile:
                params["settings_file"] = settings_file or DEFAULT_SETTINGS
            run(ctx, connection, params, where)


@setup_steps.register("snowflake_login", account="snowflake",
                      console="signs in to Snowsight, the Snowflake web console, which the emulator does not have")
def snowflake_login(ctx: TaskContext, listening_port: int = 9222, url: str = CONSOLE_URL,
                    settings_file: str | None = None) -> None:
    account = snowflake_account(ctx, settings_file, "snowflake_login")
    password = console_password(account, "snowflake_login")
    with console_page(ctx, listening_port) as page:
        page.goto(url, wait_until="load")
        snowflake_sign_in(page, account.account, account.user, password)


def names(value: Any, where: str, key: str) -> list[str] | None:
    """A name or a list of names; None when absent (meaning: all of them)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise StepError(f"{where}.{key}: must be a name or a list of names, got {value!r}")


def _shown(connection: SnowflakeConnection, what: str, column: str = "name") -> list[str]:
    """The names ``SHOW <what>`` lists."""
    cursor = connection.cursor()
    cursor.execute(f"SHOW {what}")
    index = [d.name.lower() for d in cursor.description].index(column)
    return [str(row[index]) for row in cursor.fetchall()]


def _drop(connection: SnowflakeConnection, kind: str, given: list[str] | None, shown: Callable[[], list[str]],
          keep: frozenset[str], suffix: str = "") -> None:
    """Drop the ``given`` objects that exist (names compared as Snowflake folds unquoted ones), or
    every one but ``keep``. Only what ``SHOW`` lists is dropped: an emulator that cannot drop
    (fakesnow has no DROP DATABASE) then still starts a task from its fresh, empty account."""
    wanted = None if given is None else {name.strip('"').upper() for name in given}
    for name in shown():
        if (name.upper() in wanted) if wanted is not None else (name not in keep):
            connection.cursor().execute(f'DROP {kind} IF EXISTS "{name}"{suffix}')


def delete_database(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    _drop(connection, "DATABASE", names(params.get("database"), where, "database"),
          lambda: _shown(connection, "DATABASES"), PRESERVED_DATABASES, " CASCADE")


def delete_warehouse(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    _drop(connection, "WAREHOUSE", names(params.get("warehouse"), where, "warehouse"),
          lambda: _shown(connection, "WAREHOUSES"), PRESERVED_WAREHOUSES)


def delete_user(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    def others() -> list[str]:
        current = str(connection.cursor().execute("SELECT CURRENT_USER()").fetchone()[0])  # type: ignore[union-attr,index]
        return [name for name in _shown(connection, "USERS") if name != current]

    _drop(connection, "USER", names(params.get("username"), where, "username"), others, frozenset({"SNOWFLAKE"}))


def create_database(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    database = _required(params, "database", where)
    if params.get("delete_first", True):
        delete_database(ctx, connection, {"database": database}, where)
    cursor = connection.cursor()
    cursor.execute(f"CREATE DATABASE IF NOT EXISTS {database}")
    if params.get("schema"):
        cursor.execute(f"USE DATABASE {database}")
        cursor.execute(f"CREATE SCHEMA IF NOT EXISTS {params['schema']}")


def create_table(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    cursor = connection.cursor()
    cursor.execute(f"USE DATABASE {_required(params, 'database', where)}")
    cursor.execute(f"USE SCHEMA {params.get('schema') or 'PUBLIC'}")
    cursor.execute(f"CREATE OR REPLACE TABLE {_required(params, 'table', where)} AS {_required(params, 'sql', where)}")


def execute_script(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    if params.get("sql_script"):
        script = read_host_file(ctx, params["sql_script"], where).decode("utf-8")
        statements = [s.strip() for s in COMMENTS.sub("", script).split(";") if s.strip()]
    else:
        statements = names(_required(params, "sql_command", where), where, "sql_command") or []
    cursor = connection.cursor()
    query_ids: list[str] = []
    for statement in statements:
        cursor.execute(LOCAL_FILE.sub(lambda m: f"file://{ctx.host_path(m[1])}", statement))
        query_ids.append(str(cursor.sfqid or ""))
    if params.get("query_ids_path"):
        write_query_ids(ctx, query_ids, str(params["query_ids_path"]), where)


def write_query_ids(ctx: TaskContext, query_ids: list[str], name: str, where: str) -> None:
    """The statements' query ids, a line each, in the task's cache file ``name``: a task shows the
    agent the id of what the setup did (a DELETE to undo by time travel), so a statement the
    server gave no id fails the step rather than leave the agent a blank line."""
    if not all(query_ids):
        raise StepError(f"{where}.query_ids_path: the server gave no query id for a statement")
    path = ctx.cache_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{query_id}\n" for query_id in query_ids), encoding="utf-8")


def copy_keyfile(ctx: TaskContext, connection: SnowflakeConnection, params: dict[str, Any], where: str) -> None:
    path = settings_path(ctx, params["settings_file"], f"{where}.settings_file")
    document = read_json(path, where)
    if str(document.get("host") or "").startswith(GUEST_PREFIX):  # the emulator, as the guest reaches it
        document.update(host="localhost", port=EMULATOR_PORT, protocol="http")
    dest = params.get("dest") or DEFAULT_KEYFILE_DEST
    if document.get("private_key_file"):  # a key pair: the key beside the settings, as the guest names it
        key = settings_path(ctx, str(document["private_key_file"]), f"{where}: {path.name} private_key_file")
        document["private_key_file"] = str(PurePosixPath(dest).with_name(f"snowflake_{key.name}"))
        ctx.env.upload(key.read_bytes(), document["private_key_file"])
    ctx.env.upload(json.dumps(document, indent=2).encode(), dest)


def _required(params: dict[str, Any], key: str, where: str) -> Any:
    if params.get(key) in (None, ""):
        raise StepError(f"{where}.{key} is missing")
    return params[key]


ACTIONS: dict[str, Action] = {
    "execute_script": execute_script, "delete_user": delete_user, "delete_database": delete_database,
    "delete_warehouse": delete_warehouse, "create_database": create_database, "create_table": create_table,
    "copy_keyfile": copy_keyfile,
}
