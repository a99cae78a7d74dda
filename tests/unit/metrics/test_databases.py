"""check_local_database on real DuckDB and SQLite files (and the dbt sample's gold databases)."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path

import duckdb
import pytest

from pytest_spider2v.metrics.databases import check_local_database, expand_check_types
from tests.support.shared import require, sample

DBT = sample("dbt")


def _duck(path: Path, *statements: str) -> Path:
    with duckdb.connect(str(path)) as conn:
        for sql in statements:
            conn.execute(sql)
    return path


BASE = (
    "CREATE TABLE customers(id INTEGER PRIMARY KEY, name VARCHAR)",
    "INSERT INTO customers VALUES (1, 'Ann'), (2, 'Bob')",
    "CREATE VIEW v_names AS SELECT name FROM customers",
)


def test_duckdb_default_compares_table_and_view_names(tmp_path: Path) -> None:
    gold = _duck(tmp_path / "gold.duckdb", *BASE)
    # different rows, same names: the default (names only) passes
    same_names = _duck(tmp_path / "rows.duckdb", *BASE[:1], "INSERT INTO customers VALUES (1, 'Zed')", BASE[2])
    assert check_local_database(same_names, gold) == 1.0
    no_view = _duck(tmp_path / "noview.duckdb", *BASE[:2])
    assert check_local_database(no_view, gold) == 0.0


def test_duckdb_schema_and_content(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    gold = _duck(tmp_path / "gold.duckdb", *BASE)
    same = _duck(tmp_path / "same.duckdb", *BASE)
    other_rows = _duck(tmp_path / "rows.duckdb", BASE[0], "INSERT INTO customers VALUES (1, 'Ann'), (2, 'Rob')", BASE[2])
    other_type = _duck(tmp_path / "type.duckdb", "CREATE TABLE customers(id BIGINT PRIMARY KEY, name VARCHAR)",
                       BASE[1], BASE[2])
    content = ["table-schema-content"]
    assert check_local_database(same, gold, db_type="duckdb", check_type=content) == 1.0
    with caplog.at_level(logging.INFO):
        assert check_local_database(other_rows, gold, db_type="duckdb", check_type=content) == 0.0
    assert "row 2" in caplog.text and "Rob" in caplog.text
    assert check_local_database(other_rows, gold, check_type=["table-schema"]) == 1.0
    assert check_local_database(other_type, gold, check_type=["table-schema"]) == 0.0


def test_duckdb_schema_name_and_targets(tmp_path: Path) -> None:
    setup = ("CREATE SCHEMA snapshots", "CREATE TABLE snapshots.orders_snapshot(id INTEGER, status VARCHAR)",
             "INSERT INTO snapshots.orders_snapshot VALUES (1, 'placed')")
    gold = _duck(tmp_path / "gold.duckdb", *setup, "CREATE TABLE extra(x INTEGER)")
    # an unrelated extra table in the result is ignored: only the targeted one counts
    result = _duck(tmp_path / "result.duckdb", *setup, "CREATE TABLE other(y INTEGER)")
    options = {"check_type": ["table-schema-content"], "table_targets": ["orders_snapshot"], "schema_name": "snapshots"}
    assert check_local_database(result, gold, **options) == 1.0
    changed = _duck(tmp_path / "changed.duckdb", *setup[:2], "INSERT INTO snapshots.orders_snapshot VALUES (1, 'shipped')")
    assert check_local_database(changed, gold, **options) == 0.0
    no_schema = _duck(tmp_path / "flat.duckdb", "CREATE TABLE orders_snapshot(id INTEGER, status VARCHAR)")
    assert check_local_database(no_schema, gold, **options) == 0.0


def _lite(path: Path, *statements: str) -> Path:
    conn = sqlite3.connect(path)
    for sql in statements:
        conn.execute(sql)
    conn.commit()
    conn.close()
    return path


def test_sqlite_table_schema(tmp_path: Path) -> None:
    gold = _lite(tmp_path / "gold.db", "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)", "INSERT INTO t VALUES (1, 'x')")
    same = _lite(tmp_path / "same.db", "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT)")
    other = _lite(tmp_path / "other.db", "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL)")
    assert check_local_database(same, gold, db_type="sqlite3", check_type=["table-schema"]) == 1.0
    assert check_local_database(other, gold, db_type="sqlite3", check_type=["table-schema"]) == 0.0
    assert check_local_database(same, gold, db_type="sqlite3", check_type=["table-schema-content"]) == 0.0


def test_missing_or_malformed_databases(tmp_path: Path) -> None:
    gold = _duck(tmp_path / "gold.duckdb", *BASE)
    assert check_local_database(None, gold) == 0.0
    assert check_local_database(tmp_path / "absent.duckdb", gold) == 0.0
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database")
    assert check_local_database(junk, gold) == 0.0
    with pytest.raises(ValueError, match="unknown check_type"):
        check_local_database(gold, gold, check_type=["tables"])
    with pytest.raises(ValueError, match="db_type"):
        check_local_database(gold, gold, db_type="postgres")


def test_check_types_imply_lighter_ones() -> None:
    assert expand_check_types("table-schema-content") == {"table", "table-schema", "table-schema-content"}
    assert expand_check_types(["view-schema"]) == {"view", "view-schema"}


@pytest.mark.sample
def test_sample_gold_databases(tmp_path: Path) -> None:
    """The email_address gold DB matches itself under its task's options and differs from the
    analytics gold DB; files are opened read-only (copied only so the test owns them)."""
    dbt = require(DBT)
    email = shutil.copy(next(dbt.glob("1471e2d8*/email_address.gold.duckdb")), tmp_path / "email.duckdb")
    analytics = shutil.copy(next(dbt.glob("2e79b094*/analytics.gold.duckdb")), tmp_path / "analytics.duckdb")
    options = {"db_type": "duckdb", "check_type": ["table-schema-content"], "table_targets": ["dim_customers"],
               "schema_name": "email_address"}
    assert check_local_database(email, email, **options) == 1.0
    assert check_local_database(analytics, email, **options) == 0.0
    assert check_local_database(analytics, analytics, check_type=["table-schema-content"]) == 1.0
    assert check_local_database(email, analytics) == 0.0
