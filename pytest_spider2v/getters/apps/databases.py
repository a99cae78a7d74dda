"""Getters of the databases family (PostgreSQL and MariaDB in the guest).

``database_query`` runs one SQL query with the guest's command-line client (``psql`` or
``mariadb``, as the desktop user: peer authentication for psql, ``~/.my.cnf`` for mariadb) and
writes the rows, one line per row with fields joined by ``separator`` and no header, to a file
in the cache; tasks compare it with ``compare_csv``. A failing query (missing table, wrong
column) gives None, i.e. a score of 0, and is logged.

    {"type": "database_query", "engine": "postgresql", "database": "crm",
     "sql": "SELECT ... ORDER BY 1", "dest": "rows.csv", "separator": "|", "null": "<NULL>"}
"""

from __future__ import annotations

import logging
from typing import TypedDict

from pytest_spider2v.getters.builtin import local_cache_path
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import SCRIPT_TIMEOUT, log_failure

logger = logging.getLogger(__name__)

ENGINES = ("postgresql", "mariadb")


def query_command(engine: str, database: str, sql: str, separator: str = "|", null: str = "") -> list[str]:
    """The guest command printing the query's rows without header or alignment."""
    if engine == "postgresql":
        return ["psql", "-X", "-q", "-A", "-t", "-F", separator, "-P", f"null={null}",
                "-v", "ON_ERROR_STOP=1", "-d", database, "-c", sql]
    if engine == "mariadb":
        # batch mode: tab-separated, NULL printed as NULL, -r keeps tabs/newlines unescaped
        return ["mariadb", "-N", "-B", "-r", "-D", database, "-e", sql]
    raise ValueError(f"database_query: engine must be one of {ENGINES}, not {engine!r}")


def normalise_rows(engine: str, output: str, separator: str = "|", null: str = "") -> str:
    """The client's stdout as ``separator``-joined lines ending in a newline."""
    lines = [line.rstrip("\r") for line in output.splitlines()]
    if engine == "mariadb":
        lines = [separator.join(null if f == "NULL" else f for f in line.split("\t")) for line in lines]
    return "".join(line + "\n" for line in lines)


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class DatabaseQuerySpec(TypedDict, total=False):
    engine: str
    database: str
    sql: str
    separator: str
    null: str
    dest: str


@getters.register("database_query")
def database_query(ctx: TaskContext, spec: DatabaseQuerySpec) -> str | None:
    engine, separator, null = spec.get("engine", "postgresql"), spec.get("separator", "|"), spec.get("null", "")
    command = query_command(engine, spec["database"], spec["sql"], separator, null)
    result = ctx.env.execute(command, timeout=SCRIPT_TIMEOUT)
    if not result.ok:
        log_failure(f"database_query {engine}:{spec['database']}", result)
        return None
    target = local_cache_path(ctx, spec.get("dest") or "query.csv")
    target.write_text(normalise_rows(engine, result.stdout, separator, null), encoding="utf-8")
    return str(target)
