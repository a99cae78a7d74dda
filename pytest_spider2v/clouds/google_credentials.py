"""Google credentials from a settings file, in any of the sign-ins Google's client libraries take:
a service account's key (``service_account``), a user's token as ``gcloud auth application-default
login`` saves it (``authorized_user``), or a workload or workforce identity federation file
(``external_account``, ``external_account_authorized_user``). The file's ``type`` is checked
first and each type is loaded by google-auth's own loader for it, as google-auth asks of files
it did not make (its generic ``load_credentials_from_file`` is deprecated for that reason); a
file of another or no type (an OAuth client's ``client_secrets.json``) is an error naming the file.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.clouds.settings import AccountSettingsError, read_json

if TYPE_CHECKING:
    from google.auth.credentials import Credentials

SERVICE_ACCOUNT = "service_account"
AUTHORIZED_USER = "authorized_user"
EXTERNAL_ACCOUNT = "external_account"
EXTERNAL_ACCOUNT_AUTHORIZED_USER = "external_account_authorized_user"
#: The file types that sign in to Google's APIs.
CREDENTIAL_TYPES = (SERVICE_ACCOUNT, AUTHORIZED_USER, EXTERNAL_ACCOUNT, EXTERNAL_ACCOUNT_AUTHORIZED_USER)
#: An ``external_account`` file of AWS's workload identity federation (google.auth's dispatch).
AWS_SUBJECT_TOKEN_TYPE = "urn:ietf:params:aws:token-type:aws4_request"


def google_credentials(path: Path, scopes: Sequence[str], what: str,
                       types: Collection[str] = CREDENTIAL_TYPES) -> Credentials:
    """The credentials of the file at ``path`` (one of ``types``), asking for ``scopes``. A user's
    token (``authorized_user``, ``external_account_authorized_user``) keeps the scopes it was
    granted: a refresh that asks for others is refused, so a user grants them when making it
    (README, Account tasks). Nothing is sent: the credentials sign in at their first request."""
    from google.auth.exceptions import GoogleAuthError

    document = read_json(path, what)
    kind = document.get("type") if isinstance(document, dict) else None
    if kind not in types:
        raise AccountSettingsError(
            f"{what}: {path} is not a credentials file of type {' or '.join(types)} (its 'type' is {kind!r})")
    try:
        return _load(str(kind), document, list(scopes))
    except (GoogleAuthError, ValueError, KeyError) as exc:
        raise AccountSettingsError(f"{what}: {path} is not a usable {kind} file ({type(exc).__name__}: {exc})") from None


def _load(kind: str, info: dict[str, Any], scopes: list[str]) -> Credentials:
    """The credentials of a file of type ``kind``, by google-auth's loader of that type."""
    if kind == SERVICE_ACCOUNT:
        from google.oauth2 import service_account

        return service_account.Credentials.from_service_account_info(info, scopes=scopes)
    if kind == AUTHORIZED_USER:
        from google.oauth2 import credentials

        return credentials.Credentials.from_authorized_user_info(info)
    if kind == EXTERNAL_ACCOUNT_AUTHORIZED_USER:
        from google.auth import external_account_authorized_user

        return external_account_authorized_user.Credentials.from_info(info)
    if info.get("subject_token_type") == AWS_SUBJECT_TOKEN_TYPE:
        from google.auth import aws

        return aws.Credentials.from_info(info, scopes=scopes)
    if (info.get("credential_source") or {}).get("executable") is not None:
        from google.auth import pluggable

        return pluggable.Credentials.from_info(info, scopes=scopes)
    from google.auth import identity_pool

    return identity_pool.Credentials.from_info(info, scopes=scopes)
