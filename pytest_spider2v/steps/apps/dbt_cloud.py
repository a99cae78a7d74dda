"""dbt Cloud setup steps (reference section 2.2): ``dbt_cloud_init`` and ``dbt_cloud_webui_login``,
through dbt-cloud-cli's commands on the account of ``settings/dbt_cloud/settings.json``.

``dbt_cloud_init``'s actions: ``delete_project`` (``project_id``; none: the first project, as the
original), ``create_project`` (``project_name``, default ``Analytics``), ``create_environment``
(``env_name`` in the first project, a deployment environment on ``dbt_version``, default the
original's ``1.5.0-latest``) and ``create_job`` (``job_name`` in the environment ``env_name``,
running ``execute_steps``, default ``dbt build``). ``dbt_cloud_webui_login`` signs in to the
console and opens the page ``goto_page`` names, as the original's: ``project_setup`` (the default),
the first project's setup page, if there is a project, where it clicks "Skip" ``skip_step`` times;
``account_setup``, the account's settings; ``cli_setup``, the Cloud CLI page of the user's profile
(the 2 published tasks that install dbt-cloud-cli as that page says).

Deliberate differences: an action dbt Cloud refuses fails the step (the original's CLI calls went
on), and so does a ``goto_page`` the original does not know (it opened none). Implemented, verified
only with an account: no emulator of dbt Cloud exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_spider2v.clouds.dbt_cloud import DbtCloudAccount, dbt_cloud_account, environments, first_project
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.consoles import console_page

if TYPE_CHECKING:
    from playwright.sync_api import Page

STEP = "dbt_cloud_init"
DEFAULT_DBT_VERSION = "1.5.0-latest"
SKIP_WAIT_MS = 1_500
PROJECT_SETUP = "project_setup"
#: The console's pages ``goto_page`` names other than :data:`PROJECT_SETUP`, by their path on the host.
CONSOLE_PAGES = {"account_setup": "settings/accounts/{account_id}/pages/account",
                 "cli_setup": "settings/profile/cloud-cli"}

Action = Callable[[DbtCloudAccount, dict[str, Any], str], None]


@setup_steps.register(STEP, account="dbt_cloud")
def dbt_cloud_init(ctx: TaskContext, actions: list[dict[str, Any]], settings_file: str | None = None,
                   setting_file: str | None = None) -> None:
    account = dbt_cloud_account(ctx, {"settings_file": settings_file, "setting_file": setting_file}, STEP)
    for number, action in enumerate(actions):
        where = f"{STEP}.actions[{number}]"
        run = ACTIONS.get(str(action.get("type")))
        if run is None:
            raise StepError(f"{where}.type: {action.get('type')!r} is not one of {', '.join(ACTIONS)}")
        run(account, action, where)


@setup_steps.register("dbt_cloud_webui_login", account="dbt_cloud",
                      console="signs in to the dbt Cloud console")
def dbt_cloud_webui_login(ctx: TaskContext, listening_port: int = 9222, url: str | None = None,
                          settings_file: str | None = None, setting_file: str | None = None,
                          skip_step: int = 0, goto_page: str = PROJECT_SETUP) -> None:
    if goto_page != PROJECT_SETUP and goto_page not in CONSOLE_PAGES:
        raise StepError(f"dbt_cloud_webui_login.goto_page: {goto_page!r} is not one of "
                        f"{', '.join([PROJECT_SETUP, *CONSOLE_PAGES])}")
    account = dbt_cloud_account(ctx, {"settings_file": settings_file, "setting_file": setting_file},
                                "dbt_cloud_webui_login")
    with console_page(ctx, listening_port) as page:
        page.goto(url or f"https://{account.host}/", wait_until="load")
        page.locator("input[id=email]").fill(account.email)
        page.locator("input[id=password]").fill(account.password)
        page.locator("input[type=checkbox]").check()
        page.locator("button[id=sign-in]").click()
        page.wait_for_load_state("load")
        if goto_page in CONSOLE_PAGES:
            path = CONSOLE_PAGES[goto_page].format(account_id=account.account_id)
            page.goto(f"https://{account.host}/{path}", wait_until="load")
        else:
            open_project_setup(page, account, skip_step)


def open_project_setup(page: Page, account: DbtCloudAccount, skip_step: int) -> None:
    """The first project's setup page, its first ``skip_step`` steps skipped; nothing without a project."""
    project = first_project(account)
    if project is None:
        return
    page.goto(f"https://{account.host}/{account.account_id}/projects/{project['id']}/setup", wait_until="load")
    for _ in range(skip_step):
        page.locator("button[type=button]", has_text="Skip").click()
        page.wait_for_timeout(SKIP_WAIT_MS)
        page.wait_for_load_state("load")


def delete_project(account: DbtCloudAccount, action: dict[str, Any], where: str) -> None:
    from dbt_cloud.command import DbtCloudProjectDeleteCommand

    project_id = action.get("project_id")
    if project_id is None:
        project = first_project(account)
        if project is None:
            return
        project_id = project["id"]
    account.run(DbtCloudProjectDeleteCommand, project_id=int(project_id))


def create_project(account: DbtCloudAccount, action: dict[str, Any], where: str) -> None:
    from dbt_cloud.command import DbtCloudProjectCreateCommand

    account.run(DbtCloudProjectCreateCommand, name=action.get("project_name") or "Analytics", type=0)


def _project_id(account: DbtCloudAccount, where: str) -> int:
    project = first_project(account)
    if project is None:
        raise StepError(f"{where}: the account has no project (create_project first)")
    return int(project["id"])


def create_environment(account: DbtCloudAccount, action: dict[str, Any], where: str) -> None:
    from dbt_cloud.command import DbtCloudEnvironmentCreateCommand

    if not action.get("env_name"):
        raise StepError(f"{where}.env_name is missing")
    account.run(DbtCloudEnvironmentCreateCommand, project_id=_project_id(account, where), name=action["env_name"],
                type="deployment", dbt_version=action.get("dbt_version") or DEFAULT_DBT_VERSION)


def create_job(account: DbtCloudAccount, action: dict[str, Any], where: str) -> None:
    from dbt_cloud.command import DbtCloudJobCreateCommand

    for key in ("env_name", "job_name"):
        if not action.get(key):
            raise StepError(f"{where}.{key} is missing")
    project_id = _project_id(account, where)
    named = [env for env in environments(account, project_id) if env.get("name") == action["env_name"]]
    if not named:
        raise StepError(f"{where}: the project has no environment {action['env_name']!r}")
    account.run(DbtCloudJobCreateCommand, project_id=project_id, environment_id=int(named[0]["id"]),
                name=action["job_name"], execute_steps=action.get("execute_steps") or ["dbt build"])


ACTIONS: dict[str, Action] = {
    "delete_project": delete_project, "create_project": create_project,
    "create_environment": create_environment, "create_job": create_job,
}
