"""The BigQuery settings, read as the original lays them out (``gcp_config.json`` under
--settings-dir): which project, which key, which endpoint; no server needed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds.bigquery import KEY_SCOPES, GoogleProject, bigquery_client, google_project
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.environments.base import EnvironmentFault, ExecResult
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.keys import service_account_key

CONFIG = "evaluation_examples/settings/google/gcp_config.json"


def settings_for(folder: Path, **entry: str) -> Path:
    (folder / "google").mkdir(parents=True, exist_ok=True)
    (folder / "google" / "gcp_config.json").write_text(json.dumps([{"project_name": "bigquery-project", **entry}]))
    return folder


def test_a_project_with_a_key_names_the_key_file_under_the_settings_folder(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", keyfile_path="evaluation_examples/settings/google/{project_id}.json")
    (settings / "google" / "p-1.json").write_text("{}")
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", settings)
    project = google_project(context, {"config_file": CONFIG}, "bigquery_init")
    assert (project.project_id, project.keyfile, project.api_endpoint) == ("p-1", settings / "google" / "p-1.json", None)
    assert str(settings) not in repr(project)


@pytest.mark.parametrize(("entry", "message"), [
    ({"project_id": "p-1", "keyfile_path": "evaluation_examples/settings/google/missing.json"}, "no google/missing.json"),
    ({"keyfile_path": "x.json"}, "has no 'project_id'"),
])
def test_a_settings_defect_names_the_file_and_field(tmp_path: Path, entry: dict[str, str], message: str) -> None:
    settings = settings_for(tmp_path, **entry)
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", settings)
    with pytest.raises(AccountSettingsError, match=message):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


def test_a_template_left_with_comments_is_named(tmp_path: Path) -> None:
    (tmp_path / "google").mkdir()
    (tmp_path / "google" / "gcp_config.json").write_text('[{"project_name": "bigquery-project", // DO NOT MODIFY\n}]')
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", tmp_path)
    with pytest.raises(AccountSettingsError, match=r"gcp_config.json is not JSON .*// comments"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


def test_an_emulator_in_the_guest_is_started_and_reached_where_its_port_is_published(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", api_endpoint="guest:9050")
    env = FakeEnvironment(replies=[ExecResult(0, "bigquery: ready in 4.1 s", "")])
    env.host_url = lambda port, scheme="http": f"http://127.0.0.1:4{port}"  # type: ignore[method-assign]
    context = TaskContext(env, make_task(), tmp_path / "cache", settings)
    assert google_project(context, {"config_file": CONFIG}, "bigquery_init").api_endpoint == "http://127.0.0.1:49050"
    assert env.commands == [["spider2v-service", "start", "bigquery"]]


def test_an_emulator_that_does_not_start_is_a_fault_of_the_environment(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, project_id="p-1", api_endpoint="guest:9050")
    env = FakeEnvironment(replies=[ExecResult(1, "", "spider2v-service: bigquery not ready after 180 s")])
    context = TaskContext(env, make_task(), tmp_path / "cache", settings)
    with pytest.raises(EnvironmentFault, match="bigquery emulator did not start.*not ready after 180 s"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


def test_without_a_settings_folder_the_step_says_to_pass_one(tmp_path: Path) -> None:
    context = TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", None)
    with pytest.raises(AccountSettingsError, match="pass --settings-dir"):
        google_project(context, {"config_file": CONFIG}, "bigquery_init")


#: A user's token as ``gcloud auth application-default login`` saves it.
AUTHORIZED_USER = {"type": "authorized_user", "client_id": "764086051850-x.apps.googleusercontent.com",
                   "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty", "refresh_token": "1//0refresh", "quota_project_id": "p-1"}


def project_with_key(tmp_path: Path, key: dict[str, str]) -> GoogleProject:
    settings = settings_for(tmp_path, project_id="p-1", keyfile_path="evaluation_examples/settings/google/{project_id}.json")
    (settings / "google" / "p-1.json").write_text(json.dumps(key))
    return google_project(TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", settings),
                          {"config_file": CONFIG}, "bigquery_init")


def test_a_service_accounts_key_signs_the_clients_in_scoped_for_drive_too(tmp_path: Path) -> None:
    from google.oauth2 import service_account

    project = project_with_key(tmp_path, service_account_key())
    client = bigquery_client(project)  # built offline: nothing is sent until a request
    credentials = client._credentials
    assert isinstance(credentials, service_account.Credentials)
    assert (credentials.service_account_email, tuple(credentials.scopes)) == ("runner@p-1.iam.gserviceaccount.com", KEY_SCOPES)


def test_a_users_application_default_token_signs_the_clients_in_with_its_own_grant(tmp_path: Path) -> None:
    """An ``authorized_user`` file keeps the scopes it was granted: a refresh that asked for more
    would be refused, so none are added."""
    from google.oauth2 import credentials as user

    project = project_with_key(tmp_path, AUTHORIZED_USER)
    credentials = bigquery_client(project)._credentials
    assert isinstance(credentials, user.Credentials)
    assert (credentials.refresh_token, credentials.client_id, credentials.scopes) == (
        "1//0refresh", AUTHORIZED_USER["client_id"], None)


def test_an_external_accounts_file_signs_the_clients_in_through_its_federation(tmp_path: Path) -> None:
    """Workload identity federation (``gcloud iam workload-identity-pools create-cred-config``): a
    token of another identity provider, read from a file, exchanged at Google's STS."""
    from google.auth import identity_pool

    federation = {"type": "external_account", "audience": "//iam.googleapis.com/projects/1/locations/global/"
                  "workloadIdentityPools/pool/providers/oidc", "subject_token_type": "urn:ietf:params:oauth:token-type:jwt",
                  "token_url": "https://sts.googleapis.com/v1/token", "credential_source": {"file": "/run/oidc-token"}}
    credentials = bigquery_client(project_with_key(tmp_path, federation))._credentials
    assert isinstance(credentials, identity_pool.Credentials) and tuple(credentials.scopes) == KEY_SCOPES


@pytest.mark.parametrize(("key", "message"), [
    ({"installed": {"client_id": "c", "client_secret": "s"}}, r"google/p-1.json is not a credentials file of type "
                                                               r"service_account or authorized_user .*\(its 'type' is None\)"),
    ({"type": "gdch_service_account"}, r"google/p-1.json is not a credentials file .*\(its 'type' is 'gdch_service_account'\)"),
    ({"type": "service_account", "project_id": "p-1"}, r"google/p-1.json is not a usable service_account file"),
])
def test_a_key_file_of_another_type_or_incomplete_names_the_file(tmp_path: Path, key: dict[str, Any], message: str) -> None:
    project = project_with_key(tmp_path, key)
    with pytest.raises(AccountSettingsError, match=message):
        bigquery_client(project)
