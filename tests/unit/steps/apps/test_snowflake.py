"""``snowflake_init`` on a stand-in connection (the connector's cursor API, scripted here): what
the original's tasks rely on beyond the statements themselves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.apps import snowflake as steps
from pytest_spider2v.steps.builtin import copyfile_from_host_to_guest
from pytest_spider2v.testing.factories import make_task, task_document
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.keys import write_key

SETTINGS = "evaluation_examples/settings/snowflake/settings.json"
TASK_ID = "4fa9b4f4-9e0d-4f94-b04d-c2af7e69479d"


class Cursor:
    """The connector's cursor as the step uses it: ``execute``, and ``sfqid``, the id Snowflake
    gave the statement last executed."""

    def __init__(self, executed: list[str]) -> None:
        self.executed = executed
        self.sfqid: str | None = None

    def execute(self, statement: str) -> Cursor:
        self.executed.append(statement)
        self.sfqid = f"01b5-query-{len(self.executed)}"
        return self


class Connection:
    def __init__(self) -> None:
        self.executed: list[str] = []

    def cursor(self) -> Cursor:
        return Cursor(self.executed)

    def close(self) -> None:
        pass


@pytest.fixture
def connection(monkeypatch: pytest.MonkeyPatch) -> Connection:
    stand_in = Connection()
    monkeypatch.setattr(steps, "connect", lambda account, **session: stand_in)
    return stand_in


def context(tmp_path: Path) -> TaskContext:
    (tmp_path / "settings" / "snowflake").mkdir(parents=True)
    (tmp_path / "settings" / "snowflake" / "settings.json").write_text(
        json.dumps({"account": "ab12345", "user": "u", "password": "p"}))
    task = make_task(task_document(id=TASK_ID, snapshot="snowflake", related_apps=["snowflake"]), root=tmp_path)
    return TaskContext(FakeEnvironment(), task, tmp_path / "results" / "files", tmp_path / "settings")


def test_the_statements_query_ids_go_to_the_tasks_cache_and_a_later_copy_takes_them_to_the_guest(
        tmp_path: Path, connection: Connection) -> None:
    """As the original's time-travel task does: the DELETE's query id is written to
    ``query_ids_path`` in the task's cache, which a copy step names as ``cache/<task id>/...``."""
    ctx = context(tmp_path)
    steps.snowflake_init(ctx, [{"type": "execute_script", "query_ids_path": "query_ids.txt",
                                "sql_command": ["USE DATABASE CUSTOMER", "DELETE FROM CUSTOMER WHERE C_CUSTKEY = 6"]}],
                         settings_file=SETTINGS)
    assert connection.executed == ["USE DATABASE CUSTOMER", "DELETE FROM CUSTOMER WHERE C_CUSTKEY = 6"]
    assert (ctx.cache_dir / "query_ids.txt").read_text() == "01b5-query-1\n01b5-query-2\n"
    copyfile_from_host_to_guest(ctx, f"cache/{TASK_ID}/query_ids.txt", "/home/user/Desktop/query_id.txt")
    assert ctx.env.files["/home/user/Desktop/query_id.txt"] == b"01b5-query-1\n01b5-query-2\n"  # type: ignore[attr-defined]


def test_without_query_ids_path_nothing_is_written(tmp_path: Path, connection: Connection) -> None:
    ctx = context(tmp_path)
    steps.snowflake_init(ctx, [{"type": "execute_script", "sql_command": "SELECT 1"}], settings_file=SETTINGS)
    assert connection.executed == ["SELECT 1"]
    assert not ctx.cache_dir.exists() or not any(ctx.cache_dir.iterdir())


def test_only_the_originals_cache_folder_of_this_task_is_its_cache(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    assert ctx.host_path(f"cache/{TASK_ID}/query_ids.txt") == ctx.cache_dir / "query_ids.txt"
    assert ctx.host_path("cache/another-task/query_ids.txt") == tmp_path / "cache/another-task/query_ids.txt"
    assert ctx.host_path("evaluation_examples/x.sql") == tmp_path / "evaluation_examples/x.sql"


def key_pair_context(tmp_path: Path) -> TaskContext:
    """Settings that sign in with a key pair only, as an account with MFA asks of a program."""
    write_key(tmp_path / "settings" / "snowflake" / "rsa_key.p8")
    (tmp_path / "settings" / "snowflake" / "settings.json").write_text(json.dumps(
        {"account": "ab12345", "user": "u", "private_key_file": "evaluation_examples/settings/snowflake/rsa_key.p8"}))
    task = make_task(task_document(id=TASK_ID, snapshot="snowflake", related_apps=["snowflake"]), root=tmp_path)
    return TaskContext(FakeEnvironment(), task, tmp_path / "results" / "files", tmp_path / "settings")


def test_the_console_sign_in_without_a_password_names_the_file_and_field_before_opening_a_page(tmp_path: Path) -> None:
    ctx = key_pair_context(tmp_path)
    with pytest.raises(AccountSettingsError, match=r"snowflake_login: .*snowflake/settings.json has no 'password': "
                                                   r"Snowsight's sign-in form"):
        steps.snowflake_login(ctx, settings_file=SETTINGS)
    assert ctx.env.calls == []  # type: ignore[attr-defined]


def test_copy_keyfile_takes_a_key_pairs_key_to_the_guest_and_names_it_as_the_guest_sees_it(
        tmp_path: Path, connection: Connection) -> None:
    ctx = key_pair_context(tmp_path)
    steps.snowflake_init(ctx, [{"type": "copy_keyfile", "dest": "/home/user/Desktop/keyfile.json"}], settings_file=SETTINGS)
    files = ctx.env.files  # type: ignore[attr-defined]
    copied = json.loads(files["/home/user/Desktop/keyfile.json"])
    assert copied["private_key_file"] == "/home/user/Desktop/snowflake_rsa_key.p8"
    assert files["/home/user/Desktop/snowflake_rsa_key.p8"] == (tmp_path / "settings/snowflake/rsa_key.p8").read_bytes()
