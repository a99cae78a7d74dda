"""Pure logic of the databases family's getter: the guest client command and the rows file."""

from __future__ import annotations

import pytest

from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.getters.apps.databases import database_query, normalise_rows, query_command
from pytest_spider2v.registry import getters
from pytest_spider2v.testing.factories import make_context
from pytest_spider2v.testing.fakes import FakeEnvironment


def test_registered() -> None:
    assert getters.get("database_query") is database_query


def test_psql_command_is_unaligned_without_header() -> None:
    command = query_command("postgresql", "crm", "SELECT 1", "|", "<NULL>")
    assert command[0] == "psql"
    assert {"-A", "-t", "-X"} <= set(command)
    assert command[command.index("-F") + 1] == "|"
    assert "null=<NULL>" in command
    assert command[-2:] == ["-c", "SELECT 1"]
    assert command[command.index("-d") + 1] == "crm"


def test_mariadb_command_is_batch_mode() -> None:
    command = query_command("mariadb", "sales", "SELECT 1")
    assert command[:4] == ["mariadb", "-N", "-B", "-r"]
    assert command[-2:] == ["-e", "SELECT 1"]


def test_unknown_engine() -> None:
    with pytest.raises(ValueError, match="engine"):
        query_command("oracle", "x", "SELECT 1")


def test_mariadb_rows_become_separated_lines_with_null_marker() -> None:
    out = "EL-1\tUSB-C Cable, 2m\t11.99\r\nKT-2\tNULL\t0.00\n"
    assert normalise_rows("mariadb", out, "|", "<NULL>") == "EL-1|USB-C Cable, 2m|11.99\nKT-2|<NULL>|0.00\n"


def test_psql_rows_are_kept() -> None:
    assert normalise_rows("postgresql", "1|a\n2|<NULL>\n") == "1|a\n2|<NULL>\n"
    assert normalise_rows("postgresql", "") == ""


def test_getter_writes_rows_or_gives_none(tmp_path) -> None:
    ctx = make_context(FakeEnvironment(replies=[ExecResult(0, "a\tb\n", "boom")]), cache_dir=tmp_path)
    path = database_query(ctx, {"engine": "mariadb", "database": "d", "sql": "S", "dest": "r.csv"})
    assert path == str(tmp_path / "r.csv")
    assert (tmp_path / "r.csv").read_text() == "a|b\n"
    ctx.env = FakeEnvironment(replies=[ExecResult(1, "", "boom")])
    assert database_query(ctx, {"engine": "postgresql", "database": "d", "sql": "S"}) is None
