"""The Snowflake settings, read as the original lays them out (``snowflake/settings.json`` under
--settings-dir), and which tasks the Snowflake emulator can serve: each rule on a small task made
here, with its negative case. No server needed: a sign-in is followed through the real connector
up to the login request it would send, which the test catches instead of the network."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jwt
import pytest
from snowflake.connector.network import SnowflakeRestful

from pytest_spider2v.clouds.emulators import SnowflakeEmulator
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.clouds.snowflake import SnowflakeAccount, connect, snowflake_account
from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_task, task_document
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.keys import write_key

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


@pytest.mark.parametrize("sign_in", [{"password": "p"}, {"private_key_file": "snowflake/rsa_key.p8"},
                                     {"token": "t", "authenticator": "oauth"}])
def test_an_emulator_in_the_guest_is_started_and_reached_over_http(tmp_path: Path, sign_in: dict[str, str]) -> None:
    folder = settings_folder(tmp_path, account="fakesnow", user="u", host="guest:8090", **sign_in)
    write_key(folder / "snowflake" / "rsa_key.p8")
    env = FakeEnvironment(replies=[ExecResult(0, "snowflake: ready in 3.0 s", "")])
    env.host_url = lambda port, scheme="http": f"http://127.0.0.1:4{port}"  # type: ignore[method-assign]
    account = snowflake_account(TaskContext(env, make_task(), tmp_path / "c", folder), None, "step")
    assert account.options == {"host": "127.0.0.1", "port": 48090, "protocol": "http"}
    assert env.commands == [["spider2v-service", "start", "snowflake"]]


def test_a_missing_field_names_the_file_and_field(tmp_path: Path) -> None:
    folder = settings_folder(tmp_path, account="x", password="p")
    with pytest.raises(AccountSettingsError, match=r"settings.json has no 'user'"):
        snowflake_account(TaskContext(FakeEnvironment(), make_task(), tmp_path / "c", folder), None, "step")


class LoginRequest(Exception):
    """Raised where the connector would post its login request: the request's ``data``."""


@pytest.fixture
def login_request(monkeypatch: pytest.MonkeyPatch) -> Callable[[SnowflakeAccount], dict[str, Any]]:
    """The ``data`` of the login request the real connector builds for an account, caught before
    it is sent (and before the connector looks for a cloud platform's metadata server)."""
    def post(rest: SnowflakeRestful, url: str, headers: dict[str, str], body: str, **_: Any) -> None:
        assert url.startswith("/session/v1/login-request")
        raise LoginRequest(json.loads(body)["data"])

    monkeypatch.setenv("SNOWFLAKE_DISABLE_PLATFORM_DETECTION", "true")
    monkeypatch.setattr(SnowflakeRestful, "_post_request", post)

    def sent(account: SnowflakeAccount) -> dict[str, Any]:
        with pytest.raises(LoginRequest) as caught:
            connect(account)
        data: dict[str, Any] = caught.value.args[0]
        return data
    return sent


def context_of(folder: Path) -> TaskContext:
    return TaskContext(FakeEnvironment(), make_task(), folder / "cache", folder)


@pytest.mark.parametrize("named", ["evaluation_examples/settings/snowflake/rsa_key.p8", "snowflake/rsa_key.p8"])
@pytest.mark.parametrize("passphrase", [None, "k3y-passphrase"])
def test_a_key_pair_signs_the_connectors_login_with_the_key_the_settings_name(
        tmp_path: Path, login_request: Callable[[SnowflakeAccount], dict[str, Any]], named: str,
        passphrase: str | None) -> None:
    key = write_key(tmp_path / "snowflake" / "rsa_key.p8", passphrase)
    folder = settings_folder(tmp_path, account="https://ab12345.snowflakecomputing.com", user="ana",
                             private_key_file=named, **({"private_key_file_pwd": passphrase} if passphrase else {}))
    account = snowflake_account(context_of(folder), None, "step")
    data = login_request(account)
    assert (data["AUTHENTICATOR"], data["LOGIN_NAME"]) == ("SNOWFLAKE_JWT", "ana") and "PASSWORD" not in data
    claims = jwt.decode(data["TOKEN"], key.public_key(), algorithms=["RS256"])  # signed with the settings' key
    assert claims["sub"] == "AB12345.ANA"
    assert "rsa_key" not in repr(account) and (passphrase is None or passphrase not in repr(account))


@pytest.mark.parametrize("authenticator", ["oauth", "programmatic_access_token"])
def test_a_token_signs_the_connectors_login_with_its_authenticator(
        tmp_path: Path, login_request: Callable[[SnowflakeAccount], dict[str, Any]], authenticator: str) -> None:
    folder = settings_folder(tmp_path, account="ab12345", user="ana", token="t0ken-secret", authenticator=authenticator)
    account = snowflake_account(context_of(folder), None, "step")
    data = login_request(account)
    assert (data["AUTHENTICATOR"], data["TOKEN"]) == (authenticator.upper(), "t0ken-secret")
    assert "t0ken-secret" not in repr(account)


def test_a_password_signs_the_connectors_login_as_before(
        tmp_path: Path, login_request: Callable[[SnowflakeAccount], dict[str, Any]]) -> None:
    folder = settings_folder(tmp_path, account="ab12345", user="ana", password="s3cret-pw", role="SYSADMIN")
    data = login_request(snowflake_account(context_of(folder), None, "step"))
    assert (data["PASSWORD"], data.get("AUTHENTICATOR", "SNOWFLAKE"), data["TOKEN"] if "TOKEN" in data else None) == (
        "s3cret-pw", "SNOWFLAKE", None)


@pytest.mark.parametrize(("encrypted", "given", "message"), [
    ("right", "wrong", r"settings.json private_key_file .*rsa_key.p8 cannot be read with its private_key_file_pwd"),
    ("right", None, r"settings.json private_key_file .*rsa_key.p8 is encrypted: give its passphrase"),
    (None, "stray", r"settings.json private_key_file .*rsa_key.p8 is not encrypted: remove 'private_key_file_pwd'"),
])
def test_a_key_the_passphrase_does_not_open_is_named_when_the_settings_are_read(
        tmp_path: Path, encrypted: str | None, given: str | None, message: str) -> None:
    write_key(tmp_path / "snowflake" / "rsa_key.p8", encrypted)
    folder = settings_folder(tmp_path, account="ab12345", user="ana", private_key_file="snowflake/rsa_key.p8",
                             **({"private_key_file_pwd": given} if given else {}))
    with pytest.raises(AccountSettingsError, match=message) as raised:
        snowflake_account(context_of(folder), None, "step")
    assert "wrong" not in str(raised.value) and "stray" not in str(raised.value)


@pytest.mark.parametrize(("sign_in", "message"), [
    ({}, r"settings.json has no sign-in: give 'password', 'private_key_file' .* or 'token' with 'authenticator'"),
    ({"password": "p", "private_key_file": "snowflake/rsa_key.p8"}, r"has 'password' and 'private_key_file': give one"),
    ({"password": "p", "token": "t", "authenticator": "oauth"}, r"has 'password' and 'token': give one"),
    ({"token": "t"}, r"has 'token' with 'authenticator' '': a token needs 'oauth' or 'programmatic_access_token'"),
    ({"token": "t", "authenticator": "snowflake_jwt"}, r"has 'token' with 'authenticator' 'snowflake_jwt'"),
    ({"password": "p", "authenticator": "oauth"}, r"has 'password' with 'authenticator' 'oauth': 'password' takes"),
    ({"password": "p", "private_key_file_pwd": "k"}, r"has 'private_key_file_pwd' but no 'private_key_file'"),
    ({"private_key_file": "snowflake/missing.p8"}, r"settings.json private_key_file: no snowflake/missing.p8 in"),
])
def test_no_sign_in_or_a_contradictory_one_names_the_file_and_the_fields(
        tmp_path: Path, sign_in: dict[str, str], message: str) -> None:
    write_key(tmp_path / "snowflake" / "rsa_key.p8")
    folder = settings_folder(tmp_path, account="ab12345", user="ana", **sign_in)
    with pytest.raises(AccountSettingsError, match=message):
        snowflake_account(context_of(folder), None, "step")


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


def test_a_setup_script_reading_a_share_is_named_and_a_stage_with_a_file_format_is_served(tmp_path: Path) -> None:
    script = {"type": "snowflake_init", "parameters": {"settings_file": SETTINGS, "actions": [
        {"type": "execute_script", "sql_script": "init.sql"}]}}
    (tmp_path / "init.sql").write_text("CREATE DATABASE weather FROM SHARE provider.weather_share;")
    assert reasons(snowflake_task([script], TABLE_RESULT, root=tmp_path)) == [
        "its setup script (init.sql) needs what fakesnow lacks: it has no shares (the Marketplace)"]
    # the clouds image's fakesnow uses a stage's file format, named or inline (its patch)
    (tmp_path / "init.sql").write_text("CREATE OR REPLACE STAGE DB.PUBLIC.stage FILE_FORMAT = salary_csv_format;\n"
                                       "CREATE STAGE s2 FILE_FORMAT = (TYPE = CSV SKIP_HEADER = 1);\n"
                                       "COPY INTO DB.PUBLIC.SALARY FROM @DB.PUBLIC.stage/data.csv;")
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


def test_the_user_getter_signs_in_with_the_settings_key_and_tries_the_rules_password_as_a_password(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``snowflake_user_info`` with an administrator who signs in with a key pair: its own
    connection takes the key, the check of the created user's password a password alone."""
    import snowflake.connector

    from pytest_spider2v.getters.apps.snowflake import snowflake_user_info

    class Cursor:
        def execute(self, sql: str) -> Cursor:
            self.rows = [("LOGIN_NAME", "SNOWMAN", "", "")] if sql.startswith("DESC") else [("", "ANALYST")]
            return self

        def fetchall(self) -> list[tuple[str, ...]]:
            return self.rows

    class Connection:
        def cursor(self) -> Cursor:
            return Cursor()

        def close(self) -> None:
            pass

    signed_in: list[dict[str, Any]] = []
    monkeypatch.setattr(snowflake.connector, "connect", lambda **kwargs: signed_in.append(kwargs) or Connection())
    write_key(tmp_path / "snowflake" / "rsa_key.p8")
    folder = settings_folder(tmp_path, account="ab12345", user="admin", private_key_file="snowflake/rsa_key.p8",
                             warehouse="COMPUTE_WH")
    task = snowflake_task([], {"type": "snowflake_user_info", "settings_file": SETTINGS, "username": "snowman"})
    document = task.spec.model_dump()
    document["evaluator"]["expected"] = {"type": "rule", "rules": {"NAME": "SNOWMAN", "PASSWORD": "20!4@sn0wf@ll"}}
    ctx = TaskContext(FakeEnvironment(), make_task(document), tmp_path / "cache", folder)
    info = snowflake_user_info(ctx, {"settings_file": SETTINGS, "username": "snowman"})
    assert info == {"ROLE": ["PUBLIC", "ANALYST"], "LOGIN_NAME": "SNOWMAN", "PASSWORD_ACCEPTED": True}
    admin, user = signed_in
    assert (admin["user"], admin["authenticator"], admin["private_key_file"], "password" in admin) == (
        "admin", "SNOWFLAKE_JWT", str(folder / "snowflake" / "rsa_key.p8"), False)
    assert user == {"account": "ab12345", "user": "SNOWMAN", "password": "20!4@sn0wf@ll", "warehouse": "COMPUTE_WH"}
