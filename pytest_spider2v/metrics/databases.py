"""``check_local_database``: compare a DuckDB or SQLite file the agent produced with a gold one.

Used by the dbt tasks: after ``dbt run`` the project's database must hold the same tables and
views, with the same columns (``PRAGMA table_info``) and, for ``*-content`` checks, the same
rows in the same order. Both files are opened read-only so scoring never changes them.

``duckdb`` is imported by the metric, not at start-up, when every metric is registered.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path
from typing import Any, Protocol

from pytest_spider2v.metrics.files import FileArg, existing_file
from pytest_spider2v.registry import metrics

logger = logging.getLogger(__name__)

CHECK_TYPES = ("table", "view", "table-schema", "view-schema", "table-schema-content", "view-schema-content")
#: each check implies the lighter ones (content needs schema, schema needs names)
_IMPLIES = {
    "table-schema-content": {"table-schema", "table"},
    "view-schema-content": {"view-schema", "view"},
    "table-schema": {"table"},
    "view-schema": {"view"},
}
_SYSTEM_SCHEMAS = ("information_schema", "pg_catalog")


class _Connection(Protocol):
    def execute(self, sql: str, parameters: Any = ...) -> Any: ...
    def close(self) -> None: ...


def expand_check_types(check_type: str | Iterable[str]) -> set[str]:
    """The requested checks plus those they imply; unknown names raise (a task error)."""
    requested = {check_type} if isinstance(check_type, str) else set(check_type)
    unknown = requested - set(CHECK_TYPES)
    if unknown:
        raise ValueError(f"check_local_database: unknown check_type {sorted(unknown)} (known: {CHECK_TYPES})")
    expanded = set(requested)
    for name in requested:
        expanded |= _IMPLIES.get(name, set())
    return expanded


class _Database:
    """Names, schemas and rows of one database file, qualified by schema for DuckDB."""

    def __init__(self, path: Path, db_type: str, schema_name: str) -> None:
        self.db_type = db_type
        self.schema_name = schema_name
        if db_type == "duckdb":
            import duckdb

            self.conn: _Connection = duckdb.connect(str(path), read_only=True)
            # names are qualified with the catalog too: dbt names the schema like the file
            self.catalog = self.conn.execute("SELECT current_database()").fetchone()[0]  # type: ignore[index]  # SELECT current_database() always gives a row
        else:
            self.conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
            self.catalog = ""

    def close(self) -> None:
        self.conn.close()

    def has_schema(self) -> bool:
        rows = self.conn.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = ?", [self.schema_name]
        ).fetchall()
        return bool(rows)

    def objects(self, kind: str) -> list[str]:
        """Sorted names of tables or views; DuckDB names are ``schema.name`` unless one schema
        is selected (then bare names within it)."""
        if self.db_type == "sqlite3":
            rows = self.conn.execute("SELECT name FROM sqlite_master WHERE type = ? ORDER BY name", [kind]).fetchall()
            return [r[0] for r in rows if not r[0].startswith("sqlite_")]
        table_type = "BASE TABLE" if kind == "table" else "VIEW"
        rows = self.conn.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_type = ? AND table_catalog = current_database() ORDER BY table_schema, table_name",
            [table_type],
        ).fetchall()
        if self.schema_name:
            return sorted(name for schema, name in rows if schema == self.schema_name)
        return sorted(f"{schema}.{name}" for schema, name in rows if schema not in _SYSTEM_SCHEMAS)

    def _quoted(self, name: str) -> str:
        """SQL for ``name`` as :meth:`objects` spells it, quoted part by part."""
        if self.db_type == "sqlite3":
            parts = [name]
        elif self.schema_name:
            parts = [self.catalog, self.schema_name, name]
        else:
            parts = [self.catalog, *name.split(".", 1)]
        return ".".join('"' + part.replace('"', '""') + '"' for part in parts)

    def columns(self, name: str) -> list[tuple[Any, ...]]:
        """``PRAGMA table_info`` rows: (cid, name, type, notnull, default, pk)."""
        if self.db_type == "sqlite3":
            return self.conn.execute("SELECT * FROM pragma_table_info(?)", [name]).fetchall()
        return self.conn.execute(f"SELECT * FROM pragma_table_info('{self._quoted(name).replace(chr(39), chr(39) * 2)}')").fetchall()

    def rows(self, name: str) -> list[tuple[Any, ...]]:
        return self.conn.execute(f"SELECT * FROM {self._quoted(name)}").fetchall()


@metrics.register()
def check_local_database(
    result: FileArg,
    expected: FileArg,
    *,
    db_type: str = "duckdb",
    check_type: str | Iterable[str] = ("table", "view"),
    table_targets: list[str] | None = None,
    view_targets: list[str] | None = None,
    schema_name: str = "",
) -> float:
    """1.0 if the two databases agree on the requested checks.

    ``check_type``: any of table, view (same names), table-schema, view-schema (same columns),
    table-schema-content (the same rows, in any order), view-schema-content (the same rows, in
    the same order); each implies the lighter ones. Default: table + view names. ``table_targets`` / ``view_targets`` restrict the
    comparison to those names (empty = all). ``schema_name`` (DuckDB) compares only that
    schema, and the result must have it.
    """
    if db_type not in ("duckdb", "sqlite3"):
        raise ValueError(f"check_local_database: unsupported db_type {db_type!r} (duckdb or sqlite3)")
    if schema_name and db_type != "duckdb":
        raise ValueError("check_local_database: schema_name is only supported for duckdb")
    import duckdb

    checks = expand_check_types(check_type)
    result_path, expected_path = existing_file(result, "result"), existing_file(expected, "expected")
    if result_path is None or expected_path is None:
        return 0.0
    try:
        with closing(_Database(result_path, db_type, schema_name)) as got, closing(
            _Database(expected_path, db_type, schema_name)
        ) as gold:
            return float(_compare(got, gold, checks, table_targets or [], view_targets or []))
    except (duckdb.Error, sqlite3.Error) as exc:
        logger.info("check_local_database: cannot compare databases: %s: %s", type(exc).__name__, exc)
        return 0.0


def _compare(got: _Database, gold: _Database, checks: set[str], table_targets: list[str], view_targets: list[str]) -> bool:
    if got.schema_name and got.db_type == "duckdb" and not got.has_schema():
        logger.info("check_local_database: schema %r does not exist in the result", got.schema_name)
        return False
    for kind, targets in (("table", table_targets), ("view", view_targets)):
        if kind not in checks:
            continue
        names = _targeted(got.objects(kind), targets)
        gold_names = _targeted(gold.objects(kind), targets)
        if names != gold_names:
            logger.info("check_local_database: %ss differ: result %s, expected %s", kind, names, gold_names)
            return False
        for name in names if f"{kind}-schema" in checks else []:
            columns, gold_columns = got.columns(name), gold.columns(name)
            if columns != gold_columns:
                logger.info("check_local_database: %s %s columns differ: %s vs expected %s", kind, name, columns, gold_columns)
                return False
        for name in names if f"{kind}-schema-content" in checks else []:
            rows, gold_rows = got.rows(name), gold.rows(name)
            if kind == "table":  # a deliberate difference (docs/differences.md): a table's rows have no order
                rows, gold_rows = sorted(rows, key=repr), sorted(gold_rows, key=repr)
            if rows != gold_rows:
                logger.info("check_local_database: %s %s contents differ: %s", kind, name, _row_difference(rows, gold_rows))
                return False
    return True


def _targeted(names: list[str], targets: list[str]) -> list[str]:
    """Names whose bare part is among ``targets`` (all names when there are no targets)."""
    if not targets:
        return names
    return [name for name in names if name.rsplit(".", 1)[-1] in targets or name in targets]


def _row_difference(rows: list[tuple[Any, ...]], gold: list[tuple[Any, ...]]) -> str:
    for number, (a, b) in enumerate(zip(rows, gold), start=1):
        if a != b:
            return f"row {number}: {a!r} != expected {b!r}"
    return f"{len(rows)} rows, expected {len(gold)}"
