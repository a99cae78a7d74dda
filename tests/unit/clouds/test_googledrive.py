"""Google Drive through Google's API client, its replies scripted with the client's own test
transport (``HttpMockSequence``: the real request building, no network), and the settings in the
original's PyDrive layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from googleapiclient.discovery import build
from googleapiclient.http import HttpMockSequence

from pytest_spider2v.clouds.googledrive import SCOPES, drive_credentials, drive_service
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps.googledrive import delete, mkdirs, upload
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.keys import service_account_key

OK = {"status": "200"}


class Recorder(HttpMockSequence):
    """The client's scripted transport, keeping each request's method and URI."""

    def __init__(self, replies: list[tuple[dict[str, str], str]]) -> None:
        super().__init__(replies)
        self.requests: list[tuple[str, str]] = []

    def request(self, uri: str, method: str = "GET", *args: Any, **kwargs: Any) -> Any:
        self.requests.append((method, uri.split("?")[0].removeprefix("https://www.googleapis.com")))
        return super().request(uri, method, *args, **kwargs)


def drive(replies: list[tuple[dict[str, str], str]]) -> tuple[Any, Recorder]:
    http = Recorder(replies)
    return build("drive", "v3", http=http, cache_discovery=False, static_discovery=True), http


def listing(*items: dict[str, str]) -> tuple[dict[str, str], str]:
    return OK, json.dumps({"files": list(items)})


def test_deleting_a_root_folder_lists_it_and_deletes_each_match() -> None:
    client, http = drive([listing({"id": "f1", "name": "Spider002"}), ({"status": "204"}, "")])
    delete(client, ["Spider002"], trash=False)
    assert http.requests == [("GET", "/drive/v3/files"), ("DELETE", "/drive/v3/files/f1")]


def test_mkdirs_makes_only_the_missing_folders() -> None:
    client, http = drive([listing({"id": "a", "name": "A"}), listing(), (OK, json.dumps({"id": "b"}))])
    assert mkdirs(client, ["A", "B"], True, "where") == "b"
    assert http.requests == [("GET", "/drive/v3/files"), ("GET", "/drive/v3/files"), ("POST", "/drive/v3/files")]


def test_an_existing_folder_is_refused_without_exist_ok() -> None:
    client, _ = drive([listing({"id": "a", "name": "A"})])
    with pytest.raises(StepError, match="folder A already exists"):
        mkdirs(client, ["A"], False, "where")


def test_a_file_is_uploaded_into_its_folder(tmp_path: Path) -> None:
    (tmp_path / "data.jsonl").write_text('{"a": 1}\n')
    client, http = drive([listing({"id": "s", "name": "Spider002"}), (OK, json.dumps({"id": "u"}))])
    upload(client, tmp_path / "data.jsonl", ["Spider002", "data.jsonl"], "where")
    assert http.requests == [("GET", "/drive/v3/files"), ("POST", "/upload/drive/v3/files")]


def settings(tmp_path: Path, grant: dict[str, str]) -> TaskContext:
    folder = tmp_path / "googledrive"
    folder.mkdir(parents=True)
    (folder / "settings.yml").write_text(
        "client_config_backend: file\nclient_config_file: evaluation_examples/settings/googledrive/client_secrets.json\n"
        "save_credentials: True\nsave_credentials_file: evaluation_examples/settings/googledrive/credentials.json\n")
    (folder / "client_secrets.json").write_text(json.dumps({"installed": {"client_id": "c", "client_secret": "s"}}))
    (folder / "credentials.json").write_text(json.dumps(grant))
    return TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", tmp_path)


def test_saved_authorization_without_a_refresh_token_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(AccountSettingsError, match="credentials.json has no refresh_token"):
        drive_service(settings(tmp_path, {"access_token": "x"}), None, "googledrive_init")


def test_a_saved_authorization_gives_a_drive_client(tmp_path: Path) -> None:
    service = drive_service(settings(tmp_path, {"refresh_token": "r"}), None, "googledrive_init")
    assert service._baseUrl.startswith("https://www.googleapis.com/drive/v3/")  # built offline, nothing sent


def service_account_settings(tmp_path: Path, key: dict[str, str], **more: str) -> TaskContext:
    """``settings.yml`` naming a service account's key (the original's PyDrive keys left as the
    template has them, their files absent), as a bare name and as the checkout names files."""
    folder = tmp_path / "googledrive"
    folder.mkdir(parents=True)
    lines = ["client_config_backend: file", "client_config_file: evaluation_examples/settings/googledrive/client_secrets.json",
             "save_credentials_file: evaluation_examples/settings/googledrive/credentials.json",
             "service_account_file: robot.json", *(f"{name}: {value}" for name, value in more.items())]
    (folder / "settings.yml").write_text("\n".join(lines) + "\n")
    (folder / "robot.json").write_text(json.dumps(key))
    return TaskContext(FakeEnvironment(), make_task(), tmp_path / "cache", tmp_path)


def test_a_service_accounts_key_gives_a_drive_client_without_the_pydrive_files(tmp_path: Path) -> None:
    from google.oauth2 import service_account

    service = drive_service(service_account_settings(tmp_path, service_account_key()), None, "googledrive_init")
    credentials = service._http.credentials  # built offline, nothing sent
    assert isinstance(credentials, service_account.Credentials)
    assert (credentials.service_account_email, credentials.scopes) == ("runner@p-1.iam.gserviceaccount.com", SCOPES)
    assert credentials._subject is None


def test_a_service_account_with_domain_wide_delegation_acts_as_the_subject(tmp_path: Path) -> None:
    ctx = service_account_settings(tmp_path, service_account_key(), service_account_subject="ana@example.com")
    assert drive_credentials(ctx, None, "googledrive_init")._subject == "ana@example.com"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("key", "message"), [
    ({"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "r"},
     r"settings.yml service_account_file: .*googledrive/robot.json is not a credentials file of type service_account"),
    ({"type": "service_account"}, r"googledrive/robot.json is not a usable service_account file"),
])
def test_a_service_account_file_that_is_not_a_usable_key_names_the_file(
        tmp_path: Path, key: dict[str, str], message: str) -> None:
    with pytest.raises(AccountSettingsError, match=message):
        drive_service(service_account_settings(tmp_path, key), None, "googledrive_init")


def test_a_subject_without_a_service_account_names_the_field(tmp_path: Path) -> None:
    ctx = settings(tmp_path, {"refresh_token": "r"})
    with (tmp_path / "googledrive" / "settings.yml").open("a") as file:
        file.write("service_account_subject: ana@example.com\n")
    with pytest.raises(AccountSettingsError, match="settings.yml has 'service_account_subject' but no 'service_account_file'"):
        drive_service(ctx, None, "googledrive_init")
