"""Near misses of database files by check type, in DuckDB and SQLite, each caught."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import duckdb
import pytest

from tests.support.near_misses import assert_all_caught, near_misses_of


def _duckdb(path: Path) -> str:
    with closing(duckdb.connect(str(path))) as conn:
        conn.execute("CREATE TABLE orders (id INTEGER, customer VARCHAR, amount DOUBLE)")
        conn.execute("INSERT INTO orders VALUES (1, 'ann', 2.5), (2, 'bob', 3.0)")
        conn.execute("CREATE VIEW big AS SELECT * FROM orders WHERE amount > 2.8")
    return str(path)


def _sqlite(path: Path) -> str:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE orders (id INTEGER, customer TEXT)")
        conn.execute("INSERT INTO orders VALUES (1, 'ann'), (2, 'bob')")
        conn.commit()
    return str(path)


@pytest.mark.parametrize(("check_type", "kinds"), [
    ("table", {"table dropped"}),
    ("table-schema", {"table dropped", "column added"}),
    (["table-schema-content", "view"], {"table dropped", "column added", "row deleted", "value changed", "view dropped"}),
])
def test_duckdb_by_check_type(tmp_path: Path, check_type: str | list[str], kinds: set[str]) -> None:
    result, gold = _duckdb(tmp_path / "r.duckdb"), _duckdb(tmp_path / "g.duckdb")
    found = near_misses_of("check_local_database", result, gold, {"check_type": check_type}, workdir=tmp_path / "w")
    assert_all_caught(found)
    assert {t.kind for t in found.trials} == kinds


def test_sqlite_contents(tmp_path: Path) -> None:
    result, gold = _sqlite(tmp_path / "r.db"), _sqlite(tmp_path / "g.db")
    options = {"db_type": "sqlite3", "check_type": "table-schema-content"}
    found = near_misses_of("check_local_database", result, gold, options, workdir=tmp_path / "w")
    assert_all_caught(found, 4)


def _dbt_duckdb(path: Path) -> str:
    """A database whose schema is named as its file, as dbt-duckdb builds one (email_address.duckdb)."""
    with closing(duckdb.connect(str(path))) as conn:
        conn.execute(f"CREATE SCHEMA {path.stem}")
        conn.execute(f"CREATE TABLE {path.stem}.{path.stem}.customers AS SELECT 1 AS id, 'ann@x.org' AS email")
    return str(path)


def test_a_schema_named_as_its_database_is_varied(tmp_path: Path) -> None:
    (tmp_path / "r").mkdir()
    (tmp_path / "g").mkdir()
    result, gold = _dbt_duckdb(tmp_path / "r" / "shop.duckdb"), _dbt_duckdb(tmp_path / "g" / "shop.duckdb")
    options = {"check_type": ["table-schema-content"], "table_targets": ["customers"], "schema_name": "shop"}
    found = near_misses_of("check_local_database", result, gold, options, workdir=tmp_path / "w")
    assert_all_caught(found)
    assert {t.kind for t in found.trials} == {"table dropped", "column added", "row deleted", "value changed"}
