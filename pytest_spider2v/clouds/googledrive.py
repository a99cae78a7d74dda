"""Google Drive through Google's API client (``google-api-python-client``, Drive v3), for the
account of the original's PyDrive settings (``settings/googledrive/settings.yml``): its
``client_config_file`` (the OAuth client, ``client_secrets.json``) and ``save_credentials_file``
(the user's saved authorization, ``credentials.json``, with its refresh token), both under
``--settings-dir``. The saved authorization is refreshed, never asked for: a run has no one to
click "Allow", so a folder without it is an error that says how to make it (docs/accounts.md).

Instead, the settings may name a service account's key, ``service_account_file`` (a settings
file, named like the others), which is then used and the PyDrive keys are not read. A service
account has a Drive of its own and sees the files shared with it; with
``service_account_subject`` (a Google Workspace user's address, for a key the domain has granted
domain-wide delegation), it acts as that user, in that user's Drive.

Paths are lists of names from the Drive's root, as the original's ``path`` (``["folder", "file"]``).
No emulator of Google Drive exists: this runs only with the user's account.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pytest_spider2v.clouds.google_credentials import SERVICE_ACCOUNT, google_credentials
from pytest_spider2v.clouds.settings import AccountSettingsError, settings_path
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.availability import SETTINGS_PREFIX

if TYPE_CHECKING:
    from google.auth.credentials import Credentials as AnyCredentials
    from googleapiclient.discovery import Resource

DEFAULT_SETTINGS = "evaluation_examples/settings/googledrive/settings.yml"
FOLDER = "application/vnd.google-apps.folder"
SCOPES = ["https://www.googleapis.com/auth/drive"]
TOKEN_URI = "https://oauth2.googleapis.com/token"


def drive_service(ctx: TaskContext, settings_file: str | None, what: str) -> Resource:
    """A Drive v3 client signed in with the settings' service account or saved authorization."""
    from googleapiclient.discovery import build

    return build("drive", "v3", credentials=drive_credentials(ctx, settings_file, what), cache_discovery=False)


def drive_credentials(ctx: TaskContext, settings_file: str | None, what: str) -> AnyCredentials:
    """The settings' service account (``service_account_file``), or else the PyDrive authorization."""
    from google.oauth2 import service_account
    from google.oauth2.credentials import Credentials

    path = settings_path(ctx, settings_file or DEFAULT_SETTINGS, f"{what}.settings_file")
    try:
        settings = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise AccountSettingsError(f"{what}: {path} is not YAML: {exc}") from None
    if not isinstance(settings, dict):
        raise AccountSettingsError(f"{what}: {path} is not a YAML mapping")
    if settings.get("service_account_file"):
        key = _settings_file(ctx, settings, "service_account_file", path, what)
        robot = google_credentials(key, SCOPES, f"{what}: {path.name} service_account_file", types=(SERVICE_ACCOUNT,))
        assert isinstance(robot, service_account.Credentials)
        subject = settings.get("service_account_subject")
        return robot.with_subject(str(subject)) if subject else robot
    if settings.get("service_account_subject"):
        raise AccountSettingsError(f"{what}: {path} has 'service_account_subject' but no 'service_account_file'")
    client = _settings_file(ctx, settings, "client_config_file", path, what)
    saved = _settings_file(ctx, settings, "save_credentials_file", path, what)
    secrets = json.loads(client.read_text(encoding="utf-8"))
    secrets = secrets.get("installed") or secrets.get("web") or secrets
    grant = json.loads(saved.read_text(encoding="utf-8"))
    if not grant.get("refresh_token"):
        raise AccountSettingsError(f"{what}: {saved} has no refresh_token; authorize once (README, Account tasks)")
    return Credentials(None, refresh_token=grant["refresh_token"], token_uri=grant.get("token_uri") or TOKEN_URI,
                       client_id=grant.get("client_id") or secrets.get("client_id"),
                       client_secret=grant.get("client_secret") or secrets.get("client_secret"), scopes=SCOPES)


def _settings_file(ctx: TaskContext, settings: dict[str, Any], key: str, path: Path, what: str) -> Path:
    named = settings.get(key)
    if not isinstance(named, str) or not named:
        raise AccountSettingsError(f"{what}: {path} has no {key!r}")
    return settings_path(ctx, named if named.startswith(SETTINGS_PREFIX) else SETTINGS_PREFIX + "googledrive/" + named,
                         f"{what}: {path.name} {key}")


def children(drive: Resource, parent: str, name: str | None = None, *, folders: bool | None = None,
             trashed: bool | None = False) -> list[dict[str, Any]]:
    """The items in ``parent`` (named ``name``; folders or not; in the trash or not, None: either)."""
    query = [f"'{parent}' in parents"]
    if name is not None:
        query.append("name = '{}'".format(name.replace("\\", "\\\\").replace("'", "\\'")))
    if folders is not None:
        query.append(f"mimeType {'=' if folders else '!='} '{FOLDER}'")
    if trashed is not None:
        query.append(f"trashed = {str(trashed).lower()}")
    found: list[dict[str, Any]] = []
    token = None
    while True:
        reply = drive.files().list(q=" and ".join(query), fields="nextPageToken, files(id, name, mimeType)",
                                   pageToken=token).execute()
        found += reply.get("files", [])
        token = reply.get("nextPageToken")
        if not token:
            return found
