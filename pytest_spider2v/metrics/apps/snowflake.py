"""Snowflake's metrics: ``check_snowflake_log_message`` compares the severity and the message a
logger wrote to an event table (the ``snowflake_log_message`` getter) with the task's rule, both
equal as in the original, no log line scoring 0; ``is_snowflake_user_created`` checks a user's
fields (``snowflake_user_info``) against the rule's: each field equal as text (keys upper-cased),
each ROLE granted, and the PASSWORD accepted at sign-in, which the getter tried (the original's
metric signed in itself; a metric here reads only what the getters brought)."""

from __future__ import annotations

from typing import Any

from pytest_spider2v.registry import metrics

#: Rule keys checked otherwise than by equality
SPECIAL = ("PASSWORD", "ROLE")


@metrics.register("check_snowflake_log_message")
def check_snowflake_log_message(result: dict[str, Any] | None, expected: dict[str, Any], **options: Any) -> float:
    if not isinstance(result, dict):
        return 0.0
    return float(all(result.get(key) == expected[key] for key in ("severity", "message")))


@metrics.register("is_snowflake_user_created")
def is_snowflake_user_created(result: dict[str, Any] | None, expected: dict[str, Any], **options: Any) -> float:
    if not isinstance(result, dict):
        return 0.0
    fields = {key.upper(): str(value) for key, value in expected.items() if key.upper() not in SPECIAL}
    if any(result.get(key) != value for key, value in fields.items()):
        return 0.0
    if "PASSWORD" in expected and result.get("PASSWORD_ACCEPTED") is not True:
        return 0.0
    roles = expected.get("ROLE", [])
    return float(all(role in result.get("ROLE", []) for role in ([roles] if isinstance(roles, str) else roles)))
