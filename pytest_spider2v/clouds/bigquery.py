"""A BigQuery client for a task's Google Cloud project, from the original's ``gcp_config.json``.

The file is a list of projects; a task names one by ``project_name`` (``bigquery-project``) and
the entry gives ``project_id`` and ``keyfile_path``, itself a settings file: a service account's
key as the original's, or any credentials file google-auth loads (a user's token from ``gcloud auth
application-default login``, an external account's file: :mod:`.google_credentials`). An entry
with ``api_endpoint`` instead points the client at a server speaking BigQuery's REST API (an
emulator) with anonymous credentials: the same steps and getters then run offline.
``guest:<port>`` names a server inside the task's own environment, reached where the provider
publishes that port (each environment then has its own emulator, reset with it); the image's
``bigquery`` service (bqemulator) is started there the first time a step or getter needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.clouds.google_credentials import google_credentials
from pytest_spider2v.clouds.settings import AccountSettingsError, field, guest_url, read_json, settings_path

if TYPE_CHECKING:
    from google.auth.credentials import Credentials
    from google.cloud import bigquery
    from google.cloud.bigquery_connection_v1 import Connection, ConnectionServiceClient

    from pytest_spider2v.run.task_context import TaskContext

DEFAULT_CONFIG = "evaluation_examples/settings/google/gcp_config.json"
DEFAULT_PROJECT = "bigquery-project"
#: The image's service (``spider2v-service start bigquery``) that serves the emulator on :data:`EMULATOR_PORT`.
EMULATOR_SERVICE = "bigquery"
CONNECTION_LOCATION = "us"
EMULATOR_PORT = 9050
#: Connections asked for per page: the Connection API documents ``page_size`` as required (unset,
#: it goes out as 0); the client's pager asks for the next page while there is one.
CONNECTIONS_PAGE_SIZE = 100
#: What the service account's key is used for, as the original's table getter asks: BigQuery, and
#: Google Drive, whose files a Drive-backed (external) table reads with the caller's own access.
KEY_SCOPES = ("https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/bigquery",
              "https://www.googleapis.com/auth/drive")


@dataclass(frozen=True)
class GoogleProject:
    """One project of ``gcp_config.json``: where its BigQuery lives and how to sign in."""

    project_id: str
    keyfile: Path | None  #: a credentials file (a service account's JSON key); None against an emulator
    api_endpoint: str | None = None  #: a BigQuery REST endpoint other than Google's (an emulator)

    def __repr__(self) -> str:  # the key file's path is a secret's address: keep it out of logs
        return f"GoogleProject({self.project_id!r}, endpoint={self.api_endpoint!r})"


def google_project(ctx: TaskContext, params: Mapping[str, Any], what: str) -> GoogleProject:
    """The project a step's or getter's ``config_file`` and ``project_name`` name."""
    path = settings_path(ctx, params.get("config_file") or DEFAULT_CONFIG, f"{what}.config_file")
    document = read_json(path, f"{what}.config_file")
    entries = document if isinstance(document, list) else [document]
    name = params.get("project_name") or DEFAULT_PROJECT
    matching = [e for e in entries if isinstance(e, dict) and e.get("project_name") == name]
    if not matching:
        raise AccountSettingsError(f"{what}: {path} has no project with project_name {name!r}")
    entry = matching[0]
    project_id = str(field(entry, "project_id", path, what))
    endpoint = str(entry.get("api_endpoint") or "")
    if endpoint:
        return GoogleProject(project_id, None, guest_url(ctx, endpoint, EMULATOR_SERVICE, path, "api_endpoint", what) or endpoint)
    keyfile = str(field(entry, "keyfile_path", path, what)).replace("{project_id}", project_id)
    return GoogleProject(project_id, settings_path(ctx, keyfile, f"{what}: {path.name} keyfile_path"))


def bigquery_client(project: GoogleProject) -> bigquery.Client:
    """A client of the project's BigQuery: the service account's key, or anonymous at an emulator."""
    from google.api_core.client_options import ClientOptions
    from google.auth.credentials import AnonymousCredentials
    from google.cloud import bigquery

    if project.api_endpoint:
        return bigquery.Client(project=project.project_id, credentials=AnonymousCredentials(),
                               client_options=ClientOptions(api_endpoint=project.api_endpoint))
    return bigquery.Client(project=project.project_id, credentials=_key_credentials(project))


def connections_parent(project: GoogleProject) -> str:
    """Where the project's BigQuery connections live (location ``us``, as the original's)."""
    return f"projects/{project.project_id}/locations/{CONNECTION_LOCATION}"


def connection_client(project: GoogleProject) -> ConnectionServiceClient:
    """A client of the project's BigQuery Connection API (Google's only: emulators have none)."""
    from google.cloud.bigquery_connection_v1 import ConnectionServiceClient

    if project.api_endpoint:
        raise AccountSettingsError(f"the BigQuery Connection API is not served by the emulator at {project.api_endpoint}")
    return ConnectionServiceClient(credentials=_key_credentials(project))


def list_connections(client: ConnectionServiceClient, project: GoogleProject) -> Iterable[Connection]:
    """Every connection of the project in location ``us``, page after page of
    :data:`CONNECTIONS_PAGE_SIZE` (the API requires a page size)."""
    from google.cloud.bigquery_connection_v1 import ListConnectionsRequest

    request = ListConnectionsRequest(parent=connections_parent(project), page_size=CONNECTIONS_PAGE_SIZE)
    return client.list_connections(request=request)


def _key_credentials(project: GoogleProject) -> Credentials:
    """The key file's credentials, scoped for Drive too (:data:`KEY_SCOPES`): without the Drive
    scope, BigQuery refuses (403) a query of a table whose data is a Drive file."""
    assert project.keyfile is not None
    return google_credentials(project.keyfile, KEY_SCOPES, f"keyfile_path of project {project.project_id!r}")
