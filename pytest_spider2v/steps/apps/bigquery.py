"""BigQuery setup steps: ``bigquery_init`` (reference section 2.2), through google-cloud-bigquery.

As in the original, the step works on the task's Google Cloud project from the host:

- ``empty`` leaves the project as a new one: running jobs cancelled and every job's metadata
  deleted, then every dataset's routines, models and tables with the dataset itself, then the
  BigQuery connections in location ``us``;
- ``create_table`` makes ``dataset_id.table_id`` (and the dataset), with ``schema_from_json``
  (``[{"name", "type"}]``) or, without it, the schema detected from a CSV whose header is skipped;
  ``data_from_csv`` (a task file) is loaded into it. A header-less file (one with a schema) is
  sent with the schema's names as a header line (ending as the file's lines do) and
  ``skip_leading_rows=1``: BigQuery loads the
  same rows either way, and bqemulator 1.4, which reads every CSV as having a header whatever
  ``skip_leading_rows`` says, then loads them too instead of dropping the first;
- ``copy_keyfile`` uploads the service account's key to ``dest`` in the guest (default
  ``/home/user/keyfile.json``), for the agent's own client.

``bigquery_login`` opens the project's BigQuery console (``ws``: a workspace deep link, such as a
public dataset) in the guest's Chromium and signs in to Google with ``settings/google/settings.json``.

Against an emulator (an ``api_endpoint`` in ``gcp_config.json``) there is no key and no
Connection API: ``copy_keyfile`` fails saying so, and ``empty`` has no connections to delete.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

from pytest_spider2v.clouds.bigquery import (
    GoogleProject,
    bigquery_client,
    connection_client,
    google_project,
    list_connections,
)
from pytest_spider2v.clouds.settings import field, read_json, settings_path
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError, read_host_file, reject_url
from pytest_spider2v.steps.consoles import console_page, google_sign_in

if TYPE_CHECKING:
    from google.cloud import bigquery

logger = logging.getLogger(__name__)

STEP = "bigquery_init"
DEFAULT_GOOGLE_SETTINGS = "evaluation_examples/settings/google/settings.json"
CONSOLE_URL = "https://console.cloud.google.com/bigquery"
DEFAULT_KEYFILE_DEST = "/home/user/keyfile.json"
#: How long a load job may take before the step gives up (seconds).
LOAD_TIMEOUT = 300


@setup_steps.register(STEP, account="bigquery")
def bigquery_init(ctx: TaskContext, actions: list[dict[str, Any]], config_file: str | None = None,
                  project_name: str | None = None) -> None:
    project = google_project(ctx, {"config_file": config_file, "project_name": project_name}, STEP)
    client = bigquery_client(project)
    for number, action in enumerate(actions):
        kind = action.get("type")
        where = f"{STEP}.actions[{number}]"
        if kind == "empty":
            empty(client, project)
        elif kind == "create_table":
            create_table(ctx, client, action, where)
        elif kind == "copy_keyfile":
            copy_keyfile(ctx, project, action.get("dest") or DEFAULT_KEYFILE_DEST, where)
        else:
            raise StepError(f"{where}.type: {kind!r} is not one of empty, create_table, copy_keyfile")


@setup_steps.register("bigquery_login", account="bigquery",
                      console="signs in to the BigQuery web console, which the emulator does not have")
def bigquery_login(ctx: TaskContext, settings_file: str = DEFAULT_GOOGLE_SETTINGS, config_file: str | None = None,
                   project_name: str | None = None, ws: str | None = None, listening_port: int = 9222) -> None:
    project = google_project(ctx, {"config_file": config_file, "project_name": project_name}, "bigquery_login")
    path = settings_path(ctx, settings_file, "bigquery_login.settings_file")
    account = read_json(path, "bigquery_login.settings_file")
    url = f"{CONSOLE_URL}?project={project.project_id}" + (f"&ws={ws}" if ws else "")
    with console_page(ctx, listening_port) as page:
        page.goto(url)
        google_sign_in(page, str(field(account, "email", path, "bigquery_login")),
                       str(field(account, "password", path, "bigquery_login")))


def empty(client: bigquery.Client, project: GoogleProject) -> None:
    """Cancel and forget every job, drop every dataset with its contents, delete the connections."""
    for job in client.list_jobs(all_users=True):
        if job.state in {"PENDING", "RUNNING"}:
            client.cancel_job(job.job_id, location=job.location)
        client.delete_job_metadata(job.job_id, location=job.location)
    for dataset in client.list_datasets():
        for routine in client.list_routines(dataset.reference):
            client.delete_routine(routine.reference, not_found_ok=True)
        for model in client.list_models(dataset.reference):
            client.delete_model(model.reference, not_found_ok=True)
        client.delete_dataset(dataset.reference, delete_contents=True, not_found_ok=True)
    if project.api_endpoint:
        logger.info("%s: an emulator has no BigQuery connections to delete", STEP)
        return
    connections = connection_client(project)
    for connection in list_connections(connections, project):
        connections.delete_connection(name=connection.name)


def create_table(ctx: TaskContext, client: bigquery.Client, action: dict[str, Any], where: str) -> None:
    """The action's table, with its schema or one detected from the CSV's header, and its data."""
    from google.cloud import bigquery

    for key in ("dataset_id", "table_id"):
        if not action.get(key):
            raise StepError(f"{where}.{key} is missing")
    dataset = client.create_dataset(action["dataset_id"], exists_ok=True)
    table_ref = dataset.table(action["table_id"])
    columns = action.get("schema_from_json")
    schema = [bigquery.SchemaField(c["name"], c["type"]) for c in columns] if columns else None
    source = action.get("data_from_csv")
    if not source:
        if schema is None:
            raise StepError(f"{where}: needs schema_from_json or data_from_csv")
        client.create_table(bigquery.Table(table_ref, schema=schema), exists_ok=True)
        return
    reject_url(source, where)
    data = read_host_file(ctx, source, where)
    config = bigquery.LoadJobConfig(source_format=bigquery.SourceFormat.CSV, skip_leading_rows=1)
    if schema is None:
        config.autodetect = True
    else:  # a header-less file: given the schema's names as its header, so every server skips the same line
        config.schema = schema
        newline = b"\r\n" if b"\r\n" in data[:4096] else b"\n"  # the file's own: DuckDB's sniffer wants one kind
        data = ",".join(field.name for field in schema).encode() + newline + data
    job = client.load_table_from_file(io.BytesIO(data), table_ref, job_config=config)
    job.result(timeout=LOAD_TIMEOUT)


def copy_keyfile(ctx: TaskContext, project: GoogleProject, dest: str, where: str) -> None:
    """The service account's key, in the guest for the agent's own client."""
    if project.keyfile is None:
        raise StepError(f"{where}: the project {project.project_id!r} points at an emulator "
                        f"({project.api_endpoint}); there is no key file to copy")
    ctx.env.upload(project.keyfile.read_bytes(), dest)

