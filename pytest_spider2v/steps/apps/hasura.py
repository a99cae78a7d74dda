"""Hasura Cloud: ``hasura_login`` signs in to cloud.hasura.io in the guest's Chromium with the
e-mail address and password of ``settings/hasura_cloud/settings.json``, as the original does
(reference section 2.2). It only prepares the console the agent is told to use: no emulator
stands in for Hasura Cloud, so a task that needs it runs only with the account."""

from __future__ import annotations

from pytest_spider2v.clouds.settings import field, read_json, settings_path
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.consoles import console_page

DEFAULT_URL = "https://cloud.hasura.io/signup/email"
DEFAULT_SETTINGS = "evaluation_examples/settings/hasura_cloud/settings.json"


@setup_steps.register("hasura_login", account="hasura_cloud",
                      console="signs in to the Hasura Cloud console")
def hasura_login(ctx: TaskContext, listening_port: int = 9222, url: str = DEFAULT_URL,
                 settings_file: str = DEFAULT_SETTINGS) -> None:
    path = settings_path(ctx, settings_file, "hasura_login.settings_file")
    account = read_json(path, "hasura_login.settings_file")
    with console_page(ctx, listening_port) as page:
        page.goto(url, wait_until="load")
        page.locator("form [type=email]").fill(str(field(account, "email", path, "hasura_login")))
        page.locator("form [type=password]").fill(str(field(account, "password", path, "hasura_login")))
        page.get_by_role("button", name="Continue").click()
