"""ServiceNow through WorkArena (``browsergym-workarena``), as the original runs its ServiceNow
tasks: a WorkArena task, seeded as the original seeds it, sets the instance up and opens the
task's page in the guest's Chromium; the same task object validates the final state.

The task object must live from the setup step to the evaluation, and browsergym pins a
Playwright the harness does not use; so it lives in WorkArena's task session, a process of the
``clouds`` image (service ``workarena``, guest port 9230) that attaches to the guest's Chromium
itself. This module is the host's side: the instance's settings (``SNOW_*`` of
``settings/servicenow/settings.json``) and the session's routes. The settings travel only in the
setup request's body over the environment's loopback-published port, never on a command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pytest_spider2v.clouds.settings import AccountSettingsError, field, read_json, settings_path, start_service
from pytest_spider2v.run.task_context import TaskContext

DEFAULT_SETTINGS = "evaluation_examples/settings/servicenow/settings.json"
SERVICE = "workarena"
SESSION_PORT = 9230
#: The instance's settings WorkArena reads from the environment (``SNowInstance``).
REQUIRED = ("SNOW_INSTANCE_URL", "SNOW_INSTANCE_UNAME", "SNOW_INSTANCE_PWD")
#: A task's setup logs a user in and loads ServiceNow pages; a validation queries the instance.
SETUP_TIMEOUT = 600.0
VALIDATE_TIMEOUT = 300.0


class WorkArenaError(RuntimeError):
    """WorkArena's task session refused a request (the message is the session's own)."""


def instance_settings(ctx: TaskContext, params: Mapping[str, Any], what: str) -> dict[str, str]:
    """The ``SNOW_*`` settings of the file the step or getter names (default: the original's)."""
    named = params.get("settings_file") or DEFAULT_SETTINGS
    path = settings_path(ctx, named, f"{what}.settings_file")
    document = read_json(path, f"{what}.settings_file")
    if not isinstance(document, dict):
        raise AccountSettingsError(f"{what}: {path} is not a JSON object")
    for key in REQUIRED:
        field(document, key, path, what)
    return {key: str(value) for key, value in document.items() if key.startswith("SNOW_")}


@dataclass(frozen=True)
class WorkArenaSession:
    """WorkArena's task session in one task's environment."""

    url: str

    def call(self, route: str, body: dict[str, Any], timeout: float) -> dict[str, Any]:
        import httpx

        response = httpx.post(f"{self.url}{route}", json=body, timeout=timeout)
        document = response.json()
        if response.status_code != 200:
            raise WorkArenaError(f"WorkArena's session, {route}: {document.get('error', response.text)}")
        return dict(document)


def session(ctx: TaskContext) -> WorkArenaSession:
    """The session of the task's environment, started first if it is not running."""
    start_service(ctx, SERVICE)
    return WorkArenaSession(ctx.env.host_url(SESSION_PORT))


def same_page(first: str, second: str) -> bool:
    """Whether two URLs name the same page, as the original's ``compare_urls`` decides: the
    scheme defaults to http, scheme and host compare lower-cased without ``www.``, and the path
    ``/`` is the empty path."""

    def normal(url: str) -> str:
        parts = urlsplit(url)
        host = parts.netloc.lower().replace("www.", "")
        return urlunsplit(((parts.scheme or "http").lower(), host, "" if parts.path == "/" else parts.path,
                           parts.query, parts.fragment))

    return normal(first) == normal(second)
