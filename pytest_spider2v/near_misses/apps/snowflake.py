"""Near misses of Snowflake's metrics: of a log line (``check_snowflake_log_message``), the
severity one level off, the message's last word or number changed, no line at all; of a created
user (``is_snowflake_user_created``), each ruled field changed, each ruled role not granted, the
password refused."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.near_misses.values import changed_text
from pytest_spider2v.registry import NearMiss, near_misses

#: Snowflake's log levels, for a severity one level off
LEVELS = ("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL")


@near_misses.register("check_snowflake_log_message")
def log_message(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if not isinstance(result, dict):
        return
    severity = str(result.get("severity", ""))
    other = LEVELS[(LEVELS.index(severity) + 1) % len(LEVELS)] if severity in LEVELS else "WARN"
    yield NearMiss("severity changed", f"{severity} -> {other}", {**result, "severity": other})
    yield NearMiss("message changed", "message", {**result, "message": changed_text(str(result.get("message", "")))})
    yield NearMiss("no log line", "the getter found none", None)


@near_misses.register("is_snowflake_user_created")
def user(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if not isinstance(result, dict) or not isinstance(expected, dict):
        return
    for key in expected:
        name = key.upper()
        if name == "PASSWORD":
            yield NearMiss("password refused", "PASSWORD", {**result, "PASSWORD_ACCEPTED": False})
        elif name == "ROLE":
            roles = [expected[key]] if isinstance(expected[key], str) else list(expected[key])
            for role in roles:
                kept = [granted for granted in result.get("ROLE", []) if granted != role]
                yield NearMiss("role not granted", role, {**result, "ROLE": kept})
        elif name in result:
            yield NearMiss("field changed", name, {**result, name: changed_text(str(result[name]))})
