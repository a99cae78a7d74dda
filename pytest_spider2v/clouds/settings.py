"""Reading the account settings files a task names, from the folder given with ``--settings-dir``.

Tasks name them as the original's checkout holds them (``evaluation_examples/settings/google/
gcp_config.json``); the user keeps the same layout below their own folder, outside any checkout,
so secrets never sit beside the tasks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.tasks.availability import SETTINGS_PREFIX

if TYPE_CHECKING:  # a run's context, which the steps and getters calling these are given
    from pytest_spider2v.run.task_context import TaskContext


class AccountSettingsError(RuntimeError):
    """A settings file a task names is missing or malformed (the message names the file and field)."""


def settings_path(ctx: TaskContext, named: str, what: str) -> Path:
    """The file ``named`` by the task's ``what`` (``bigquery_init.config_file``), under --settings-dir."""
    if ctx.settings_dir is None:
        raise AccountSettingsError(f"{what}: {named!r} is an account setting; pass --settings-dir")
    relative = named.removeprefix(SETTINGS_PREFIX) if named.startswith(SETTINGS_PREFIX) else named
    path = ctx.settings_dir / relative
    if not path.is_file():
        raise AccountSettingsError(f"{what}: no {relative} in the settings folder {ctx.settings_dir}")
    return path


def read_json(path: Path, what: str) -> Any:
    """The JSON document at ``path``; a parse error names the file and where it is."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise AccountSettingsError(
            f"{what}: {path} is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "the original's templates carry // comments, which the filled-in file must not"
        ) from None


#: A setting of this form (an endpoint, a host) names a port of the task's own environment.
GUEST_PREFIX = "guest:"


def guest_url(ctx: TaskContext, value: str, service: str, path: Path, key: str, what: str) -> str | None:
    """Where the host reaches the setting ``key``'s ``guest:<port>`` (the image's ``service``,
    started first): the environment's published port; None for any other value (a real service)."""
    if not value.startswith(GUEST_PREFIX):
        return None
    port = value.removeprefix(GUEST_PREFIX)
    if not port.isdigit():
        raise AccountSettingsError(f"{what}: {path} {key} {value!r} is not guest:<port>")
    start_service(ctx, service)
    return ctx.env.host_url(int(port))


def start_service(ctx: TaskContext, name: str) -> None:
    """Start the image's service ``name`` (an emulator) in the task's environment and wait until it
    answers; a no-op once it runs."""
    result = ctx.env.execute(["spider2v-service", "start", name])
    if not result.ok:
        raise EnvironmentFault(f"the {name} emulator did not start in the environment: "
                                   f"{(result.stderr or result.stdout).strip()[-500:]}")


def field(document: dict[str, Any], name: str, path: Path, what: str) -> Any:
    """A required field of a settings document, or an error naming the file and the field."""
    if name not in document or document[name] in ("", None):
        raise AccountSettingsError(f"{what}: {path} has no {name!r}")
    return document[name]
