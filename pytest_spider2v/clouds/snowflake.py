"""A Snowflake connection for a task, from the original's ``settings/snowflake/settings.json``.

The file gives ``account`` (the account's URL, ``https://<identifier>.snowflakecomputing.com``,
or its identifier), ``user`` and one sign-in, as snowflake-connector-python takes it:

- ``password`` (the original's; an account that enforces MFA refuses it);
- key pair: ``private_key_file``, a PEM private key whose public key is set on the user (a
  settings file, named like the others: relative to --settings-dir, with or without
  ``evaluation_examples/settings/``), and ``private_key_file_pwd`` when the key is encrypted;
  the key is read once when the settings are, so a wrong passphrase is named there;
- ``token`` with ``authenticator``: ``oauth`` (an OAuth access token) or
  ``programmatic_access_token`` (a PAT).

None of them, or more than one, is an error naming the file and the fields. Any other key
(``role``, ``warehouse``) is passed to the connector as the original does. A ``host`` of the form
``guest:<port>`` points the connection at an emulator inside the task's environment (fakesnow's
server, over plain HTTP), started the first time a step or getter needs it. Snowsight's sign-in
form (``snowflake_login``) takes a password only: :func:`console_password`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pytest_spider2v.clouds.settings import AccountSettingsError, guest_url, read_json, settings_path
from pytest_spider2v.clouds.settings import field as required

if TYPE_CHECKING:  # the connector's, and a run's context, which the steps and getters calling these are given
    from snowflake.connector import SnowflakeConnection

    from pytest_spider2v.run.task_context import TaskContext

DEFAULT_SETTINGS = "evaluation_examples/settings/snowflake/settings.json"
#: The image's service that serves the emulator on :data:`EMULATOR_PORT`.
EMULATOR_SERVICE = "snowflake"
EMULATOR_PORT = 8090
ACCOUNT_URL = re.compile(r"https://(.*?)\.snowflakecomputing\.com")


#: The connector's ``authenticator`` for each sign-in (``snowflake.connector.network``); upper case
#: as the connector compares them. A ``token`` needs one of :data:`TOKEN_AUTHENTICATORS` named.
PASSWORD_AUTHENTICATOR = "SNOWFLAKE"
KEY_PAIR_AUTHENTICATOR = "SNOWFLAKE_JWT"
TOKEN_AUTHENTICATORS = ("OAUTH", "PROGRAMMATIC_ACCESS_TOKEN")
#: The fields that sign in, one of them given: the rest of the document goes to the connector as it is.
SIGN_INS = ("password", "private_key_file", "token")
SIGN_IN_FIELDS = frozenset({*SIGN_INS, "private_key_file_pwd", "authenticator"})
TOKEN_CHOICES = " or ".join(repr(a.lower()) for a in TOKEN_AUTHENTICATORS)


@dataclass(frozen=True)
class SnowflakeAccount:
    """Where to connect and as whom; ``options`` go to the connector as they are. One sign-in is
    set: ``password``, ``private_key_file`` (with ``private_key_file_pwd`` if encrypted) or
    ``token`` with ``authenticator``. Secrets, and where they lie, stay out of ``repr``."""

    account: str
    user: str
    password: str | None = field(default=None, repr=False)
    options: dict[str, Any] = field(default_factory=dict, repr=False)
    private_key_file: Path | None = field(default=None, repr=False)
    private_key_file_pwd: str | None = field(default=None, repr=False)
    token: str | None = field(default=None, repr=False)
    authenticator: str | None = None  #: for a ``token``: one of :data:`TOKEN_AUTHENTICATORS`
    settings_file: Path | None = field(default=None, repr=False)  #: where the settings were read

    def sign_in(self) -> dict[str, Any]:
        """The connector's arguments that sign in (``snowflake.connector.connect``'s names)."""
        if self.private_key_file is not None:
            key: dict[str, Any] = {"authenticator": KEY_PAIR_AUTHENTICATOR, "private_key_file": str(self.private_key_file)}
            if self.private_key_file_pwd is not None:
                key["private_key_file_pwd"] = self.private_key_file_pwd
            return key
        if self.token is not None:
            return {"authenticator": self.authenticator, "token": self.token}
        return {"password": self.password}


def snowflake_account(ctx: TaskContext, settings_file: str | None, what: str) -> SnowflakeAccount:
    """The account the task's ``settings_file`` names (default: the original's)."""
    path = settings_path(ctx, settings_file or DEFAULT_SETTINGS, f"{what}.settings_file")
    document = read_json(path, f"{what}.settings_file")
    if not isinstance(document, dict):
        raise AccountSettingsError(f"{what}: {path} is not a JSON object")
    account = str(required(document, "account", path, what))
    if matched := ACCOUNT_URL.search(account):
        account = matched[1]
    user = str(required(document, "user", path, what))
    sign_in = _sign_in(ctx, document, path, what)
    options = {k: v for k, v in document.items() if k not in {"account", "user", *SIGN_IN_FIELDS}}
    if emulator := guest_url(ctx, str(options.get("host") or ""), EMULATOR_SERVICE, path, "host", what):
        url = urlsplit(emulator)
        options.update(host=url.hostname, port=url.port, protocol="http")
    return SnowflakeAccount(account, user, options=options, settings_file=path, **sign_in)


def _sign_in(ctx: TaskContext, document: dict[str, Any], path: Path, what: str) -> dict[str, Any]:
    """The one sign-in the settings give, as :class:`SnowflakeAccount`'s fields; a key file is read."""
    given = {name: str(document[name]) for name in SIGN_IN_FIELDS if document.get(name) not in ("", None)}
    signs_in = [name for name in SIGN_INS if name in given]
    if not signs_in:
        raise AccountSettingsError(
            f"{what}: {path} has no sign-in: give 'password', 'private_key_file' (a key pair; with "
            f"'private_key_file_pwd' if the key is encrypted) or 'token' with 'authenticator' ({TOKEN_CHOICES})")
    if len(signs_in) > 1:
        raise AccountSettingsError(f"{what}: {path} has {' and '.join(map(repr, signs_in))}: give one sign-in, not several")
    (sign_in,) = signs_in
    if "private_key_file_pwd" in given and sign_in != "private_key_file":
        raise AccountSettingsError(f"{what}: {path} has 'private_key_file_pwd' but no 'private_key_file'")
    authenticator = given.get("authenticator", "").upper()
    if sign_in == "token":
        if authenticator not in TOKEN_AUTHENTICATORS:
            raise AccountSettingsError(f"{what}: {path} has 'token' with 'authenticator' "
                                       f"{given.get('authenticator', '')!r}: a token needs {TOKEN_CHOICES}")
        return {"token": given["token"], "authenticator": authenticator}
    fitting = PASSWORD_AUTHENTICATOR if sign_in == "password" else KEY_PAIR_AUTHENTICATOR
    if authenticator not in ("", fitting):
        raise AccountSettingsError(f"{what}: {path} has {sign_in!r} with 'authenticator' {given['authenticator']!r}: "
                                   f"{sign_in!r} takes {fitting.lower()!r} or none")
    if sign_in == "password":
        return {"password": given["password"]}
    key = settings_path(ctx, given["private_key_file"], f"{what}: {path.name} private_key_file")
    passphrase = given.get("private_key_file_pwd")
    _read_private_key(key, passphrase, path, what)
    return {"private_key_file": key, "private_key_file_pwd": passphrase}


def _read_private_key(key: Path, passphrase: str | None, path: Path, what: str) -> None:
    """Read the key as the connector will (``load_pem_private_key`` with the passphrase), so a
    wrong or missing passphrase is named with the settings, not met at the first connection."""
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    try:
        load_pem_private_key(key.read_bytes(), password=None if passphrase is None else passphrase.encode())
    except TypeError:  # encrypted without a passphrase, or a passphrase for a key without one
        needs = "is encrypted: give its passphrase as" if passphrase is None else "is not encrypted: remove"
        raise AccountSettingsError(f"{what}: {path} private_key_file {key} {needs} 'private_key_file_pwd'") from None
    except ValueError as exc:  # a wrong passphrase, or not a PEM private key
        raise AccountSettingsError(
            f"{what}: {path} private_key_file {key} cannot be read"
            f"{' with its private_key_file_pwd' if passphrase is not None else ''} (a PEM private key: {exc})") from None


def console_password(account: SnowflakeAccount, what: str) -> str:
    """The password for Snowsight's sign-in form, which takes no key and no token."""
    if account.password is None:
        raise AccountSettingsError(
            f"{what}: {account.settings_file} has no 'password': Snowsight's sign-in form (a console step) takes "
            "the user's password; a key pair or a token signs in the connector's steps and getters only")
    return account.password


def connect(account: SnowflakeAccount, **session: Any) -> SnowflakeConnection:
    """A connection to the account (``session``: ``database``, ``schema``, ... to start in)."""
    import snowflake.connector

    return snowflake.connector.connect(account=account.account, user=account.user, **account.sign_in(),
                                       **{**account.options, **session})


def quoted(name: str) -> str:
    """An identifier as the original's SQL names it: as written, unless it needs quotes (a ``-``)."""
    return f'"{name}"' if "-" in name and not name.startswith('"') else name
