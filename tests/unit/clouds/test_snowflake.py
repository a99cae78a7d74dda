"""The Snowflake settings, read as the original lays them out (``snowflake/settings.json`` under
--settings-dir), and which tasks the Snowflake emulator can serve: each rule on a small task made
here, with its negative case. No server needed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds.emulators import SnowflakeEmulator
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.clouds.snowflake import snowflake_account
from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import Task
from tests.support.factories import FakeEnvironment, make_task, task_document

SETTINGS = "evaluation_examples/settings/snowflake/settings.json"
TABLE_RESULT = {"type": "snowflake_table_to_csv", "settings_file": SETTINGS, "database": "D", "table": "T"}
COPY = {"type": "copyfile_from_host_to_guest", "parameters": {"src": "data.csv", "dest": "/home/user/Desktop/data.csv"}}


def settings_folder(folder: Path, **document: Any) -> Path:
    (folder / "snowflake").mkdir(parents=True, exist_ok=True)
    (folder / "snowflake" / "settings.json").write_text(json.dumps(document))
    return folder


def test_the_account_url_is_reduced_to_its_identifier_and_the_password_kept_out_of_repr(tmp_path: Path) -> None:
    folder = settings_folder(tmp_path, account="https://ab12345.snowflakecomputing.com", user="ana",
                             password="s3cret-pw", warehouse="COMPUTE_WH")
    account = snowflake_account(TaskContext(FakeEnvironment(), make_task(), tmp_path / "c", folder), None, "step")
    assert (account.account, account.user, account.options) == ("ab12345", "ana", {"warehouse": "COMPUTE_WH"})
    assert "s3cret-pw" not in repr(account)


def test_an_emulator_in_the_guest_is_started_and_reached_over_http(tmp_path: Path) -> None:
    folder = settings_folder(tmp_path, account="fakesnow", user="u", password="p", host="guest:8090")
    env = FakeEnvironment(replies=[ExecResult(0, "snowflake: ready in 3.0 s", "")])
    env.host_url = lambda port, scheme="http": f"http://127.0.0.1:4{port}"  # type: ignore[method-assign]
    account = snowflake_account(TaskContext(env, make_task(), tmp_path / "c", folder), None, "step")
    assert account.options == {"host": "127.0.0.1", "port": 48090, "protocol": "http"}
    assert env.commands == [["spider2v-service", "start", "snowflake"]]


def test_a_missing_field_names_the_file_and_field(tmp_path: Path) -> None:
    folder = settings_folder(tmp_path, account="x", user="u")
    with pytest.raises(AccountSettingsError, match=r"settings.json has no 'password'"):
        snowflake_account(TaskContext(FakeEnvironment(), make_task(), tmp_path / "c", folder), None, "step")


def snowflake_task(steps: list[dict[str, Any]], result: dict[str, Any], *, func: str = "compare_csv",
                   root: Path | None = None) -> Task:
    init = {"type": "snowflake_init", "parameters": {"settings_file": SETTINGS, "actions": [{"type": "delete_database"}]}}
    document = task_document(id="sf", snapshot="snowflake", related_apps=["snowflake", "chromium"],
                             tags=["account", "gui", "data_warehousing"],
                             config=[*steps, init, {"type": "snowflake_login", "parameters": {"settings_file": SETTINGS}}],
                             evaluator={"func": func, "result": result,
                                        "expected": {"type": "local_file", "path": "gold.csv"}})
    return make_task(document, root=root)


def reasons(task: Task) -> list[str]:
    return SnowflakeEmulator().task_reasons(task)


def test_a_task_that_brings_its_data_is_served(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_text("a,b\n1,2\n")
    assert reasons(snowflake_task([COPY], TABLE_RESULT, root=tmp_path)) == []


def test_a_database_read_without_data_brought_in_comes_from_a_share() -> None:
    (found,) = reasons(snowflake_task([], TABLE_RESULT))
    assert "share or the Marketplace" in found


def test_an_s3_url_in_a_copied_file_is_named_and_a_local_one_is_not(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_text("CREATE STAGE s URL = 's3://bucket/menu/';\n")
    (found,) = reasons(snowflake_task([COPY], TABLE_RESULT, root=tmp_path))
    assert "Amazon S3" in found
    (tmp_path / "data.csv").write_text("PUT file:///home/user/menu.csv @s;\n")
    assert reasons(snowflake_task([COPY], TABLE_RESULT, root=tmp_path)) == []


def test_a_stage_with_a_named_file_format_is_named_and_an_inline_one_is_not(tmp_path: Path) -> None:
    script = {"type": "snowflake_init", "parameters": {"settings_file": SETTINGS, "actions": [
        {"type": "execute_script", "sql_script": "init.sql"}]}}
    (tmp_path / "init.sql").write_text("CREATE OR REPLACE STAGE DB.PUBLIC.stage FILE_FORMAT = salary_csv_format;")
    (found,) = reasons(snowflake_task([script], TABLE_RESULT, root=tmp_path))
    assert "named file format" in found
    (tmp_path / "init.sql").write_text("CREATE STAGE DB.PUBLIC.stage; COPY INTO t FROM @stage FILE_FORMAT = (TYPE = CSV);")
    assert reasons(snowflake_task([script], TABLE_RESULT, root=tmp_path)) == []


def test_a_console_address_or_a_chart_as_the_answer_is_named(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_text("a\n1\n")
    url = {"type": "active_url_from_accessTree", "goto_prefix": "https://"}
    assert "browser's address" in reasons(snowflake_task([COPY], url, root=tmp_path))[0]
    chart = {"type": "vm_file", "path": "/home/user/chart.png", "dest": "chart.png"}
    assert "image" in reasons(snowflake_task([COPY], chart, func="compare_images", root=tmp_path))[0]


def test_the_settings_point_at_the_guests_emulator(tmp_path: Path) -> None:
    SnowflakeEmulator().write_settings(tmp_path)
    document = json.loads((tmp_path / "snowflake" / "settings.json").read_text())
    assert document["host"] == "guest:8090" and {"account", "user", "password"} <= set(document)


def test_the_user_getter_tries_the_password_the_rules_name_and_no_other() -> None:
    from pytest_spider2v.getters.apps.snowflake import _ruled_password

    def ctx_with(rules: dict[str, Any]) -> TaskContext:
        task = snowflake_task([], {"type": "snowflake_user_info", "settings_file": SETTINGS, "username": "snowman"})
        document = task.spec.model_dump()
        document["evaluator"]["expected"] = {"type": "rule", "rules": rules}
        return TaskContext(FakeEnvironment(), make_task(document), Path("cache"), None)

    assert _ruled_password(ctx_with({"NAME": "SNOWMAN", "PASSWORD": "20!4@sn0wf@ll"})) == "20!4@sn0wf@ll"
    assert _ruled_password(ctx_with({"NAME": "SNOWMAN"})) is None
