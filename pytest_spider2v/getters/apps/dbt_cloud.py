"""dbt Cloud getters (reference section 3), as the original's: ``dbt_project_info`` (``fields``
of the first project: ``name``, ``connection_type``), ``dbt_environment_info`` and
``dbt_job_info`` (``fields`` of the environment or job named ``name`` in it). Each gives the
fields' values, each followed by a space, or ``"None"`` when there is no such project,
environment or job. Implemented, verified only with an account.
"""

from __future__ import annotations

from typing import Any, TypedDict

from pytest_spider2v.clouds.dbt_cloud import DbtCloudAccount, dbt_cloud_account, environments, first_project
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext

NONE = "None"


def _joined(values: list[Any]) -> str:
    return "".join(f"{'None' if value is None else value} " for value in values)


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class DbtCloudSpec(TypedDict, total=False):
    settings_file: str
    setting_file: str  # the original's misspelling, read alike
    name: str  # of the environment or job
    fields: list[str]  # what to give of it


@getters.register("dbt_project_info", account="dbt_cloud")
def dbt_project_info(ctx: TaskContext, spec: DbtCloudSpec) -> str:
    project = first_project(dbt_cloud_account(ctx, spec, "dbt_project_info"))
    if project is None:
        return NONE
    connection = project.get("connection") or {}
    values = {"name": project.get("name"), "connection_type": connection.get("type") if connection else None}
    return _joined([values.get(name) for name in spec.get("fields", [])])


@getters.register("dbt_environment_info", account="dbt_cloud")
def dbt_environment_info(ctx: TaskContext, spec: DbtCloudSpec) -> str:
    account = dbt_cloud_account(ctx, spec, "dbt_environment_info")
    project = first_project(account)
    if project is None:
        return NONE
    return _named(environments(account, int(project["id"])), spec.get("name", "New Environment"), spec)


@getters.register("dbt_job_info", account="dbt_cloud")
def dbt_job_info(ctx: TaskContext, spec: DbtCloudSpec) -> str:
    from dbt_cloud.command import DbtCloudJobListCommand

    account: DbtCloudAccount = dbt_cloud_account(ctx, spec, "dbt_job_info")
    project = first_project(account)
    if project is None:
        return NONE
    jobs = account.run(DbtCloudJobListCommand, project_id=str(project["id"])) or []
    return _named(jobs, spec.get("name", ""), spec)


def _named(items: list[dict[str, Any]], name: str, spec: DbtCloudSpec) -> str:
    found = [item for item in items if item.get("name") == name]
    return _joined([found[0].get(field) for field in spec.get("fields", [])]) if found else NONE
