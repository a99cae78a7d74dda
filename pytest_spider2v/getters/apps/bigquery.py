"""BigQuery getters (reference section 3), through google-cloud-bigquery on the task's project.

``bigquery_table_to_csv`` selects ``schema``'s columns (``["*"]`` for all) of
``dataset_id.table_id`` and ``bigquery_sql_result_to_csv`` runs a task's SQL file (``{}`` standing
for the project id); both write the rows as the original does, through pandas, without header or
index, and give None when the table or a name in the query does not exist, or when Google refuses
the query (403: a Drive-backed table whose file the service account may not read), a score of 0.
``bigquery_datasets`` lists the project's dataset ids, ``bigquery_connections`` its connection
ids in location ``us``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, TypedDict

from pytest_spider2v.clouds.bigquery import bigquery_client, connection_client, google_project, list_connections
from pytest_spider2v.getters.builtin import local_cache_path
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import read_host_file

if TYPE_CHECKING:
    from google.cloud import bigquery

logger = logging.getLogger(__name__)

QUERY_TIMEOUT = 300


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class ProjectSpec(TypedDict, total=False):
    config_file: str  # the project's settings, below the settings folder
    project_name: str


class TableToCsvSpec(ProjectSpec, total=False):
    dataset_id: str
    table_id: str
    schema: list[str]  # the columns
    dest: str


class SqlToCsvSpec(ProjectSpec, total=False):
    sql: str  # a host file
    dest: str


@getters.register("bigquery_table_to_csv", account="bigquery")
def bigquery_table_to_csv(ctx: TaskContext, spec: TableToCsvSpec) -> str | None:
    project = google_project(ctx, spec, "bigquery_table_to_csv")
    columns = ", ".join(spec.get("schema") or ["*"])
    table = f"`{project.project_id}.{spec['dataset_id']}.{spec['table_id']}`"
    return _query_to_csv(ctx, bigquery_client(project), f"SELECT {columns} FROM {table}", spec.get("dest") or "table.csv")


@getters.register("bigquery_sql_result_to_csv", account="bigquery")
def bigquery_sql_result_to_csv(ctx: TaskContext, spec: SqlToCsvSpec) -> str | None:
    project = google_project(ctx, spec, "bigquery_sql_result_to_csv")
    sql = read_host_file(ctx, spec["sql"], "bigquery_sql_result_to_csv").decode("utf-8")
    return _query_to_csv(ctx, bigquery_client(project), sql.replace("{}", project.project_id),
                         spec.get("dest") or "result.csv")


@getters.register("bigquery_datasets", account="bigquery")
def bigquery_datasets(ctx: TaskContext, spec: ProjectSpec) -> list[str]:
    client = bigquery_client(google_project(ctx, spec, "bigquery_datasets"))
    return [dataset.dataset_id for dataset in client.list_datasets()]


@getters.register("bigquery_connections", account="bigquery",
                  not_emulated="the emulator has no BigQuery Connection API")
def bigquery_connections(ctx: TaskContext, spec: ProjectSpec) -> list[str]:
    project = google_project(ctx, spec, "bigquery_connections")
    return [c.name.rsplit("/", 1)[-1] for c in list_connections(connection_client(project), project)]


def _query_to_csv(ctx: TaskContext, client: bigquery.Client, sql: str, dest: str) -> str | None:
    from google.api_core.exceptions import BadRequest, Forbidden, NotFound

    try:
        frame = client.query(sql).result(timeout=QUERY_TIMEOUT).to_dataframe(create_bqstorage_client=False)
    except (NotFound, BadRequest) as exc:
        logger.info("BigQuery query failed (%s); the getter gives None", exc.message)
        return None
    except Forbidden as exc:  # a table reading a Drive file the account may not read: scored, not an error
        logger.warning("BigQuery refused the query (403: %s); the getter gives None", exc.message)
        return None
    target = local_cache_path(ctx, dest)
    frame.to_csv(target, index=False, header=False)
    return str(target)
