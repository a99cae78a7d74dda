"""dbt Cloud: the settings (the original's layout, its misspelt ``setting_file``), and which
dbt-cloud-cli commands each action and getter runs, with what, on an account whose replies are
scripted here (no dbt Cloud is reachable; the library's HTTP is its own)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds.dbt_cloud import DbtCloudAccount, dbt_cloud_account
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.getters.apps.dbt_cloud import dbt_environment_info, dbt_job_info, dbt_project_info
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps import dbt_cloud as steps
from pytest_spider2v.steps.apps.dbt_cloud import dbt_cloud_init, dbt_cloud_webui_login
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.shared import require, sample, task_files

SETTINGS = "evaluation_examples/settings/dbt_cloud/settings.json"


def context(tmp_path: Path, **document: Any) -> TaskContext:
    (tmp_path / "dbt_cloud").mkdir(parents=True, exist_ok=True)
    settings = {"email": "a@b.c", "password": "pw", "account_id": "70", "token": "dbtc_secret",
                "cloud_host": "https://emea.dbt.com/", **document}
    (tmp_path / "dbt_cloud" / "settings.json").write_text(json.dumps(settings))
    return TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", tmp_path)


class Scripted:
    """Records each command an account runs and answers from a script of replies by command."""

    def __init__(self, replies: dict[str, Any]) -> None:
        self.replies = replies
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, account: DbtCloudAccount, command: type[Any], **fields: Any) -> Any:
        self.calls.append((command.__name__.removeprefix("DbtCloud").removesuffix("Command"), fields))
        return self.replies.get(self.calls[-1][0])


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Scripted:
    script = Scripted({"ProjectList": [{"id": 5, "name": "Thanksgiving", "connection": {"type": "snowflake"}}],
                       "EnvironmentList": [{"id": 8, "name": "Sales", "dbt_version": "1.7.0-latest",
                                            "type": "deployment"}],
                       "JobList": [{"id": 9, "name": "Nightly", "cron_humanized": "Every day"}]})
    monkeypatch.setattr(DbtCloudAccount, "run", lambda self, command, **f: script(self, command, **f))
    return script


def test_the_settings_give_the_account_the_host_without_its_scheme_and_hide_the_token(tmp_path: Path) -> None:
    account = dbt_cloud_account(context(tmp_path), {"setting_file": SETTINGS}, "step")
    assert (account.account_id, account.host) == (70, "emea.dbt.com")
    assert "dbtc_secret" not in repr(account) and "pw" not in repr(account)


def test_an_account_id_that_is_not_a_number_is_named(tmp_path: Path) -> None:
    with pytest.raises(AccountSettingsError, match="account_id 'xxxxxxx' is not a number"):
        dbt_cloud_account(context(tmp_path, account_id="xxxxxxx"), {}, "step")


def test_the_actions_delete_the_first_project_then_make_a_project_an_environment_and_a_job(
        tmp_path: Path, scripted: Scripted) -> None:
    dbt_cloud_init(context(tmp_path), [{"type": "delete_project"}, {"type": "create_project", "project_name": "Xmas"},
                                       {"type": "create_environment", "env_name": "Sales"},
                                       {"type": "create_job", "env_name": "Sales", "job_name": "Nightly"}],
                   setting_file=SETTINGS)
    assert [name for name, _ in scripted.calls] == ["ProjectList", "ProjectDelete", "ProjectCreate", "ProjectList",
                                                    "EnvironmentCreate", "ProjectList", "EnvironmentList", "JobCreate"]
    assert scripted.calls[1][1] == {"project_id": 5}
    assert scripted.calls[2][1] == {"name": "Xmas", "type": 0}
    assert scripted.calls[4][1] == {"project_id": 5, "name": "Sales", "type": "deployment", "dbt_version": "1.5.0-latest"}
    assert scripted.calls[7][1] == {"project_id": 5, "environment_id": 8, "name": "Nightly", "execute_steps": ["dbt build"]}


def test_a_job_in_an_environment_that_does_not_exist_is_named(tmp_path: Path, scripted: Scripted) -> None:
    with pytest.raises(StepError, match="no environment 'Prod'"):
        dbt_cloud_init(context(tmp_path), [{"type": "create_job", "env_name": "Prod", "job_name": "J"}])


def test_the_getters_give_the_fields_each_followed_by_a_space_or_none(tmp_path: Path, scripted: Scripted) -> None:
    ctx = context(tmp_path)
    assert dbt_project_info(ctx, {"fields": ["connection_type"]}) == "snowflake "
    assert dbt_environment_info(ctx, {"name": "Sales", "fields": ["dbt_version", "type"]}) == "1.7.0-latest deployment "
    assert dbt_job_info(ctx, {"name": "Nightly", "fields": ["cron_humanized"]}) == "Every day "
    assert dbt_job_info(ctx, {"name": "Weekly", "fields": ["cron_humanized"]}) == "None"


def test_every_command_is_a_valid_dbt_cloud_cli_request_with_the_fields_given(tmp_path: Path, scripted: Scripted) -> None:
    import dbt_cloud.command

    ctx = context(tmp_path)
    dbt_cloud_init(ctx, [{"type": "delete_project"}, {"type": "create_project", "project_name": "Xmas"},
                         {"type": "create_environment", "env_name": "Sales"},
                         {"type": "create_job", "env_name": "Sales", "job_name": "Nightly"}])
    dbt_job_info(ctx, {"name": "Nightly", "fields": ["cron_humanized"]})
    for name, fields in scripted.calls:  # the library's own models validate what would be sent
        command = getattr(dbt_cloud.command, f"DbtCloud{name}Command")(
            api_token="t", account_id=70, dbt_cloud_host="emea.dbt.com", **fields)
        assert command.api_url.startswith("https://emea.dbt.com/api/v"), name


class ConsolePage:
    """The guest browser's tab as the sign-in step drives it: what it was sent to and what was done."""

    def __init__(self) -> None:
        self.visited: list[str] = []
        self.done: list[str] = []

    def goto(self, url: str, **options: Any) -> None:
        self.visited.append(url)

    def locator(self, selector: str, has_text: str | None = None) -> ConsolePage:
        self.done.append(selector + (f" {has_text!r}" if has_text else ""))
        return self

    def fill(self, value: str) -> None:
        pass

    def check(self) -> None:
        pass

    def click(self) -> None:
        pass

    def wait_for_load_state(self, state: str = "load") -> None:
        pass

    def wait_for_timeout(self, milliseconds: float) -> None:
        pass


@pytest.fixture
def console(monkeypatch: pytest.MonkeyPatch) -> ConsolePage:
    page = ConsolePage()

    @contextmanager
    def opened(ctx: TaskContext, listening_port: int) -> Iterator[ConsolePage]:
        yield page

    monkeypatch.setattr(steps, "console_page", opened)
    return page


@pytest.mark.parametrize(("goto_page", "opened"), [
    ("cli_setup", "https://emea.dbt.com/settings/profile/cloud-cli"),
    ("account_setup", "https://emea.dbt.com/settings/accounts/70/pages/account"),
])
def test_after_sign_in_the_console_opens_the_page_the_task_names(
        tmp_path: Path, scripted: Scripted, console: ConsolePage, goto_page: str, opened: str) -> None:
    """The original's ``goto_page``: the Cloud CLI's setup page of the user's profile (the task
    "install dbt-cloud-cli as the opened page says"), or the account's settings."""
    dbt_cloud_webui_login(context(tmp_path), setting_file=SETTINGS, goto_page=goto_page)
    assert console.visited == ["https://emea.dbt.com/", opened]
    assert "button[id=sign-in]" in console.done
    assert scripted.calls == []  # no project is needed to open either page


def test_by_default_the_first_project_setup_is_opened_and_its_steps_skipped(
        tmp_path: Path, scripted: Scripted, console: ConsolePage) -> None:
    dbt_cloud_webui_login(context(tmp_path), skip_step=2)
    assert console.visited == ["https://emea.dbt.com/", "https://emea.dbt.com/70/projects/5/setup"]
    assert console.done.count("button[type=button] 'Skip'") == 2


def test_a_page_the_original_does_not_know_is_refused_before_signing_in(
        tmp_path: Path, scripted: Scripted, console: ConsolePage) -> None:
    with pytest.raises(StepError, match="goto_page: 'billing' is not one of project_setup, account_setup, cli_setup"):
        dbt_cloud_webui_login(context(tmp_path), goto_page="billing")
    assert console.visited == []


@pytest.mark.sample
def test_every_published_goto_page_is_a_page_the_step_opens() -> None:
    """What ``spider2v-compat`` counts runnable with accounts must set up: the sample's two tasks
    that open the Cloud CLI page name a page the step knows."""
    named = [step["parameters"]["goto_page"] for path in task_files(require(sample()))
             for step in json.loads(path.read_text())["config"]
             if step["type"] == "dbt_cloud_webui_login" and "goto_page" in step["parameters"]]
    assert named and set(named) <= {steps.PROJECT_SETUP, *steps.CONSOLE_PAGES}
