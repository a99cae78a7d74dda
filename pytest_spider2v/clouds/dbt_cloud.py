"""dbt Cloud's Administrative API through dbt-cloud-cli's command models (the library behind the
``dbt-cloud`` commands the original ran), for a task's account in
``settings/dbt_cloud/settings.json`` (``account_id``, ``token``, ``cloud_host``; ``email`` and
``password`` for the console's sign-in).

A trial account holds one project, so, as the original, "the project" is the first one listed.
No emulator of dbt Cloud exists: this runs only with the user's account.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_spider2v.clouds.settings import AccountSettingsError, read_json, settings_path
from pytest_spider2v.clouds.settings import field as required
from pytest_spider2v.run.task_context import TaskContext

DEFAULT_SETTINGS = "evaluation_examples/settings/dbt_cloud/settings.json"
DEFAULT_HOST = "cloud.getdbt.com"


class DbtCloudError(RuntimeError):
    """dbt Cloud refused a request (the message has its status and reply, never the token)."""


@dataclass(frozen=True)
class DbtCloudAccount:
    account_id: int
    token: str = field(repr=False)
    host: str = DEFAULT_HOST
    email: str = field(default="", repr=False)
    password: str = field(default="", repr=False)

    def run(self, command: type[Any], **fields: Any) -> Any:
        """Execute one dbt-cloud-cli command on this account; its reply's ``data``."""
        response = command(api_token=self.token, account_id=self.account_id, dbt_cloud_host=self.host,
                           **fields).execute()
        if response.status_code >= 400:
            raise DbtCloudError(f"dbt Cloud {command.__name__}: HTTP {response.status_code}: {response.text[:500]}")
        return response.json().get("data")


def dbt_cloud_account(ctx: TaskContext, params: Mapping[str, Any], what: str) -> DbtCloudAccount:
    """The account the step's or getter's settings file names (``settings_file``, or the original's
    misspelt ``setting_file``, which it ignored for the same default)."""
    named = params.get("settings_file") or params.get("setting_file") or DEFAULT_SETTINGS
    path = settings_path(ctx, named, f"{what}.settings_file")
    document = read_json(path, f"{what}.settings_file")
    if not isinstance(document, dict):
        raise AccountSettingsError(f"{what}: {path} is not a JSON object")
    account_id = str(required(document, "account_id", path, what))
    if not account_id.isdigit():
        raise AccountSettingsError(f"{what}: {path} account_id {account_id!r} is not a number")
    host = str(document.get("cloud_host") or DEFAULT_HOST).removeprefix("https://").rstrip("/")
    return DbtCloudAccount(int(account_id), str(required(document, "token", path, what)), host,
                           str(document.get("email") or ""), str(document.get("password") or ""))


def first_project(account: DbtCloudAccount) -> dict[str, Any] | None:
    """The account's first project (a trial account's only one), or None."""
    from dbt_cloud.command import DbtCloudProjectListCommand

    projects = account.run(DbtCloudProjectListCommand) or []
    return projects[0] if projects else None


def environments(account: DbtCloudAccount, project_id: int) -> list[dict[str, Any]]:
    from dbt_cloud.command import DbtCloudEnvironmentListCommand

    return list(account.run(DbtCloudEnvironmentListCommand, project_id=project_id) or [])
