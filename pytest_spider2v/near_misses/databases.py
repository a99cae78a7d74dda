"""Near misses of database files (``check_local_database``), by what the task's ``check_type``
compares: a table or view dropped (names), a column added (schemas), a row deleted or one value
changed (contents). Each variant is a copy of the file changed through its own engine."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

from pytest_spider2v.near_misses.values import changed, numbered
from pytest_spider2v.registry import NearMiss, near_misses

_IMPLIED_BY = {
    "table": {"table", "table-schema", "table-schema-content"},
    "view": {"view", "view-schema", "view-schema-content"},
    "table-schema": {"table-schema", "table-schema-content"},
    "table-schema-content": {"table-schema-content"},
}


@near_misses.register("check_local_database")
def database(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if not isinstance(result, (str, Path)) or not Path(result).is_file():
        return
    path = Path(result)
    db_type = options.get("db_type", "duckdb")
    schema = options.get("schema_name", "")
    requested = options.get("check_type", ("table", "view"))
    checks = {requested} if isinstance(requested, str) else set(requested)

    def wants(check: str) -> bool:
        return bool(checks & _IMPLIED_BY[check])

    names = _names(path, db_type, schema)
    if names is None:
        return
    tables = _targeted(names["table"], options.get("table_targets") or [])
    views = _targeted(names["view"], options.get("view_targets") or [])
    if tables and wants("table"):
        yield from _variant(path, workdir, db_type, "table dropped", tables[-1], f"DROP TABLE {_quote(tables[-1])}")
    if views and wants("view"):
        yield from _variant(path, workdir, db_type, "view dropped", views[-1], f"DROP VIEW {_quote(views[-1])}")
    if tables and wants("table-schema"):
        yield from _variant(path, workdir, db_type, "column added", tables[-1],
                       f"ALTER TABLE {_quote(tables[-1])} ADD COLUMN near_miss INTEGER")
    if tables and wants("table-schema-content"):
        for table in tables:
            row = _first_row(path, db_type, table)
            if row is None:
                continue
            columns, values = row
            yield from _variant(path, workdir, db_type, "row deleted", table,
                           f"DELETE FROM {_quote(table)} WHERE rowid = (SELECT min(rowid) FROM {_quote(table)})")
            column = next((i for i, value in enumerate(values) if value is not None), None)
            if column is not None:
                yield from _variant(path, workdir, db_type, "value changed", f"{table}.{columns[column]}",
                               f"UPDATE {_quote(table)} SET {_quote(columns[column])} = ? "
                               f"WHERE rowid = (SELECT min(rowid) FROM {_quote(table)})", [changed(values[column])])
            break  # one table's rows show whether contents are compared


def _targeted(names: list[str], targets: list[str]) -> list[str]:
    if not targets:
        return names
    return [name for name in names if any(name == t or name.endswith("." + t) for t in targets)]


def _quote(name: str) -> str:
    """``catalog.schema.table`` quoted part by part: a schema named as its database file (dbt's
    ``email_address`` in ``email_address.duckdb``) is ambiguous without the catalog."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in name.split(".", 2))


def _connect(path: Path, db_type: str, read_only: bool = True) -> Any:
    if db_type == "sqlite3":
        return sqlite3.connect(f"{path.as_uri()}?mode={'ro' if read_only else 'rw'}", uri=True)
    import duckdb

    return duckdb.connect(str(path), read_only=read_only)


def _names(path: Path, db_type: str, schema: str) -> dict[str, list[str]] | None:
    try:
        with closing(_connect(path, db_type)) as conn:
            if db_type == "sqlite3":
                rows = conn.execute("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
                return {kind: sorted(n for k, n in rows if k == kind and not n.startswith("sqlite_"))
                        for kind in ("table", "view")}
            rows = conn.execute("SELECT table_type, table_catalog, table_schema, table_name FROM information_schema.tables "
                                "WHERE table_catalog = current_database()").fetchall()
    except Exception:  # not a database of this kind: the metric scores that, nothing to vary
        return None
    found: dict[str, list[str]] = {"table": [], "view": []}
    for table_type, catalog, table_schema, name in rows:
        if table_schema in ("information_schema", "pg_catalog") or (schema and table_schema != schema):
            continue
        found["table" if table_type == "BASE TABLE" else "view"].append(f"{catalog}.{table_schema}.{name}")
    return {kind: sorted(names) for kind, names in found.items()}


def _first_row(path: Path, db_type: str, table: str) -> tuple[list[str], tuple[Any, ...]] | None:
    try:
        with closing(_connect(path, db_type)) as conn:
            cursor = conn.execute(f"SELECT * FROM {_quote(table)} ORDER BY rowid LIMIT 1")
            row = cursor.fetchone()
            columns = [d[0] for d in cursor.description]
    except Exception:  # a table without row ids: its rows are not varied
        return None
    return (columns, row) if row is not None else None


def _variant(path: Path, workdir: Path, db_type: str, kind: str, where: str, sql: str,
             parameters: list[Any] | None = None) -> Iterator[NearMiss]:
    """The variant, or nothing when the engine refuses the change (a value of another type, a
    table without row ids)."""
    out = numbered(workdir, path.name)
    shutil.copyfile(path, out)
    wal = path.with_name(path.name + ".wal")
    if wal.is_file():
        shutil.copyfile(wal, out.with_name(out.name + ".wal"))
    try:
        with closing(_connect(out, db_type, read_only=False)) as conn:
            _execute(conn, sql, parameters)
    except Exception:  # duckdb and sqlite3 errors alike: this change cannot be made here
        return
    yield NearMiss(kind, where, str(out))


def _execute(conn: Any, sql: str, parameters: list[Any] | None) -> None:
    run: Callable[..., Any] = conn.execute
    run(sql, parameters) if parameters is not None else run(sql)
    if isinstance(conn, sqlite3.Connection):
        conn.commit()
