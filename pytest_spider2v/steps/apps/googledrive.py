"""Google Drive setup steps (reference section 2.2): ``googledrive_init`` through Google's Drive
API client, and ``googledrive_login`` in the guest's Chromium.

``googledrive_init``'s actions, as the original's: ``delete`` (the item at ``path``, or with an
empty path everything in the root; ``trash`` moves it to the trash instead), ``mkdirs`` (the
folders of ``path``, ``exist_ok`` by default) and ``upload`` (a task file or folder, ``src``, to
``path``; a folder's tree is uploaded under a new folder). Deliberate differences: an item that
cannot be deleted fails the step (the original skipped it silently); ``src`` may not be a URL (no
internet). ``googledrive_login`` opens My Drive and, when ``need_login``, signs in to Google with
``settings/google/settings.json``. Implemented, verified only with an account.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.clouds.googledrive import FOLDER, children, drive_service
from pytest_spider2v.clouds.settings import field, read_json, settings_path
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError, reject_url
from pytest_spider2v.steps.consoles import console_page, google_sign_in

if TYPE_CHECKING:
    from googleapiclient.discovery import Resource

STEP = "googledrive_init"
MY_DRIVE = "https://drive.google.com/drive/my-drive"


@setup_steps.register(STEP, account="googledrive")
def googledrive_init(ctx: TaskContext, actions: list[dict[str, Any]], settings_file: str | None = None) -> None:
    drive = drive_service(ctx, settings_file, STEP)
    for number, action in enumerate(actions):
        where = f"{STEP}.actions[{number}]"
        path = action.get("path", [])
        path = [path] if isinstance(path, str) else list(path)
        kind = action.get("type")
        if kind == "delete":
            delete(drive, path, bool(action.get("trash", False)))
        elif kind == "mkdirs":
            mkdirs(drive, path, bool(action.get("exist_ok", True)), where)
        elif kind == "upload":
            reject_url(str(action.get("src", "")), where)
            upload(drive, ctx.host_path(str(action["src"])), path, where)
        else:
            raise StepError(f"{where}.type: {kind!r} is not one of delete, mkdirs, upload")


@setup_steps.register("googledrive_login", account="googledrive",
                      console="opens Google Drive in the browser and signs in to Google")
def googledrive_login(ctx: TaskContext, settings_file: str = "evaluation_examples/settings/google/settings.json",
                      listening_port: int = 9222, url: str = MY_DRIVE, need_login: bool = True) -> None:
    with console_page(ctx, listening_port) as page:
        page.goto(url)
        if need_login:
            path = settings_path(ctx, settings_file, "googledrive_login.settings_file")
            account = read_json(path, "googledrive_login.settings_file")
            google_sign_in(page, str(field(account, "email", path, "googledrive_login")),
                           str(field(account, "password", path, "googledrive_login")))


def _folder(drive: Resource, path: list[str], where: str, create: bool = False) -> str | None:
    """The id of the folder at ``path`` (made when ``create``), or None when it is not there."""
    parent = "root"
    for depth, name in enumerate(path):
        found = children(drive, parent, name, folders=True)
        if len(found) > 1:
            raise StepError(f"{where}: several folders {'/'.join(path[:depth + 1])} in the Drive")
        if found:
            parent = found[0]["id"]
        elif create:
            parent = drive.files().create(body={"name": name, "mimeType": FOLDER, "parents": [parent]},
                                          fields="id").execute()["id"]
        else:
            return None
    return parent


def delete(drive: Resource, path: list[str], trash: bool) -> None:
    parent = _folder(drive, path[:-1], "delete") if path else "root"
    if parent is None:
        return
    items = children(drive, parent, path[-1] if path else None, trashed=False if trash else None)
    for item in items:
        if trash:
            drive.files().update(fileId=item["id"], body={"trashed": True}).execute()
        else:
            drive.files().delete(fileId=item["id"]).execute()


def mkdirs(drive: Resource, path: list[str], exist_ok: bool, where: str) -> str:
    if not exist_ok and _folder(drive, path, where) is not None:
        raise StepError(f"{where}: folder {'/'.join(path)} already exists in the Drive")
    folder = _folder(drive, path, where, create=True)
    assert folder is not None
    return folder


def upload(drive: Resource, source: Path, path: list[str], where: str) -> None:
    from googleapiclient.http import MediaFileUpload

    if not path:
        raise StepError(f"{where}.path: the target path is empty")
    if source.is_dir():
        if _folder(drive, path, where) is not None:
            raise StepError(f"{where}: folder {'/'.join(path)} already exists in the Drive")
        mkdirs(drive, path, True, where)
        for child in sorted(source.iterdir()):
            upload(drive, child, [*path, child.name], where)
        return
    if not source.is_file():
        raise StepError(f"{where}.src: no file or folder {source}")
    parent = mkdirs(drive, path[:-1], True, where) if len(path) > 1 else "root"
    drive.files().create(body={"name": path[-1], "parents": [parent]}, media_body=MediaFileUpload(str(source)),
                         fields="id").execute()
