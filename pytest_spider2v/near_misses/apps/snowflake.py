"""Near misses of a Snowflake log line (``check_snowflake_log_message``): the severity one level
off, the message's last word or number changed, and no line at all."""

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
