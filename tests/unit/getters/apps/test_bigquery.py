"""The BigQuery getters against Google's own client libraries, with what Google would answer
scripted here (no network): the Connection API's listing as it goes on the wire, and a query
Google refuses (403) scored instead of ending the evaluation in an error."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds.bigquery import GoogleProject, bigquery_client
from pytest_spider2v.getters.apps import bigquery as getter
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.fakes import FakeEnvironment

CONFIG = "evaluation_examples/settings/google/gcp_config.json"
PARENT = "projects/p-1/locations/us"


def context(tmp_path: Path) -> TaskContext:
    (tmp_path / "google").mkdir(parents=True, exist_ok=True)
    (tmp_path / "google" / "gcp_config.json").write_text(json.dumps(
        [{"project_name": "bigquery-project", "project_id": "p-1",
          "keyfile_path": "evaluation_examples/settings/google/p-1.json"}]))
    (tmp_path / "google" / "p-1.json").write_text("{}")
    return TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", tmp_path)


class Reply:
    """What ``requests`` gives the REST transport: a status and a JSON body."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.status_code = 200
        self.content = json.dumps(body).encode()
        self.headers: dict[str, str] = {}


class ConnectionPages:
    """The Connection API's REST endpoint: two pages of connections, and the query of each request."""

    def __init__(self) -> None:
        self.params: list[dict[str, str]] = []

    def get(self, url: str, **request: Any) -> Reply:
        assert url == f"https://bigqueryconnection.googleapis.com/v1/{PARENT}/connections"
        self.params.append(dict(request["params"]))
        if self.params[-1].get("pageToken") != "page-2":
            return Reply({"connections": [{"name": f"{PARENT}/connections/sales"}], "nextPageToken": "page-2"})
        return Reply({"connections": [{"name": f"{PARENT}/connections/drive_lake"}]})


def test_connections_are_listed_with_the_page_size_the_api_requires_page_after_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from google.auth.credentials import AnonymousCredentials
    from google.cloud.bigquery_connection_v1 import ConnectionServiceClient
    from google.cloud.bigquery_connection_v1.services.connection_service.transports import rest

    pages = ConnectionPages()
    monkeypatch.setattr(rest, "AuthorizedSession", lambda *args, **kwargs: pages)
    client = ConnectionServiceClient(credentials=AnonymousCredentials(), transport="rest")
    monkeypatch.setattr(getter, "connection_client", lambda project: client)
    assert getter.bigquery_connections(context(tmp_path), {"config_file": CONFIG}) == ["sales", "drive_lake"]
    assert [p.get("pageToken") for p in pages.params] == [None, "page-2"]
    assert all(int(p["pageSize"]) > 0 for p in pages.params), pages.params  # an unset size goes out as 0


class RefusedQuery:
    """A BigQuery client whose query job fails as one reading a Drive-backed table the service
    account cannot read does: 403, reason accessDenied."""

    def query(self, sql: str) -> RefusedQuery:
        self.sql = sql
        return self

    def result(self, timeout: float | None = None) -> Any:
        from google.api_core.exceptions import Forbidden

        raise Forbidden("Access Denied: BigQuery BigQuery: Permission denied while getting Drive credentials.")


def test_a_query_google_refuses_gives_none_so_the_task_scores_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    client = RefusedQuery()
    monkeypatch.setattr(getter, "bigquery_client", lambda project: client)
    spec = {"config_file": CONFIG, "dataset_id": "lake", "table_id": "from_drive", "schema": ["*"], "dest": "t.csv"}
    with caplog.at_level(logging.INFO, logger=getter.__name__):
        assert getter.bigquery_table_to_csv(context(tmp_path), spec) is None
    assert client.sql == "SELECT * FROM `p-1.lake.from_drive`"
    assert "Permission denied while getting Drive credentials" in caplog.text


def test_the_service_account_key_is_scoped_for_drive_backed_tables(tmp_path: Path) -> None:
    """A table whose data is a Drive file is read with the caller's Drive access: without the
    Drive scope BigQuery refuses it (the original's table getter asks for it)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    keyfile = tmp_path / "p-1.json"
    keyfile.write_text(json.dumps({"type": "service_account", "project_id": "p-1", "private_key_id": "k1",
                                   "private_key": pem, "client_email": "sa@p-1.iam.gserviceaccount.com",
                                   "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token"}))
    scopes = bigquery_client(GoogleProject("p-1", keyfile))._credentials.scopes
    assert {"https://www.googleapis.com/auth/drive", "https://www.googleapis.com/auth/bigquery",
            "https://www.googleapis.com/auth/cloud-platform"} <= set(scopes)
