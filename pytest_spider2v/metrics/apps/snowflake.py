"""Snowflake: ``check_snowflake_log_message``, which compares the severity and the message a
logger wrote to an event table (the ``snowflake_log_message`` getter) with the task's rule.
Both must be equal, as in the original; no log line (None) scores 0."""

from __future__ import annotations

from typing import Any

from pytest_spider2v.registry import metrics


@metrics.register("check_snowflake_log_message")
def check_snowflake_log_message(result: dict[str, Any] | None, expected: dict[str, Any], **options: Any) -> float:
    if not isinstance(result, dict):
        return 0.0
    return float(all(result.get(key) == expected[key] for key in ("severity", "message")))
