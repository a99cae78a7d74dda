"""A Snowflake connection for a task, from the original's ``settings/snowflake/settings.json``.

The file gives ``account`` (the account's URL, ``https://<identifier>.snowflakecomputing.com``,
or its identifier), ``user`` and ``password``; any other key (``role``, ``warehouse``) is passed
to the connector as the original does. A ``host`` of the form ``guest:<port>`` points the
connection at an emulator inside the task's environment (fakesnow's server, over plain HTTP),
started the first time a step or getter needs it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pytest_spider2v.clouds.settings import AccountSettingsError, guest_url, read_json, settings_path
from pytest_spider2v.clouds.settings import field as required
from pytest_spider2v.run.task_context import TaskContext

if TYPE_CHECKING:
    from snowflake.connector import SnowflakeConnection

DEFAULT_SETTINGS = "evaluation_examples/settings/snowflake/settings.json"
#: The image's service that serves the emulator on :data:`EMULATOR_PORT`.
EMULATOR_SERVICE = "snowflake"
EMULATOR_PORT = 8090
ACCOUNT_URL = re.compile(r"https://(.*?)\.snowflakecomputing\.com")


@dataclass(frozen=True)
class SnowflakeAccount:
    """Where to connect and as whom; ``options`` go to the connector as they are."""

    account: str
    user: str
    password: str = field(repr=False)
    options: dict[str, Any] = field(default_factory=dict, repr=False)


def snowflake_account(ctx: TaskContext, settings_file: str | None, what: str) -> SnowflakeAccount:
    """The account the task's ``settings_file`` names (default: the original's)."""
    path = settings_path(ctx, settings_file or DEFAULT_SETTINGS, f"{what}.settings_file")
    document = read_json(path, f"{what}.settings_file")
    if not isinstance(document, dict):
        raise AccountSettingsError(f"{what}: {path} is not a JSON object")
    account = str(required(document, "account", path, what))
    if matched := ACCOUNT_URL.search(account):
        account = matched[1]
    options = {k: v for k, v in document.items() if k not in {"account", "user", "password"}}
    if emulator := guest_url(ctx, str(options.get("host") or ""), EMULATOR_SERVICE, path, "host", what):
        url = urlsplit(emulator)
        options.update(host=url.hostname, port=url.port, protocol="http")
    return SnowflakeAccount(account, str(required(document, "user", path, what)),
                            str(required(document, "password", path, what)), options)


def connect(account: SnowflakeAccount, **session: Any) -> SnowflakeConnection:
    """A connection to the account (``session``: ``database``, ``schema``, ... to start in)."""
    import snowflake.connector

    return snowflake.connector.connect(account=account.account, user=account.user, password=account.password,
                                       **{**account.options, **session})


def quoted(name: str) -> str:
    """An identifier as the original's SQL names it: as written, unless it needs quotes (a ``-``)."""
    return f'"{name}"' if "-" in name and not name.startswith('"') else name
