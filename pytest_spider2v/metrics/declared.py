"""Metrics of the original benchmark that are known by name but not available here.

Declaring them lets task validation accept the original task files; a task that uses one is
skipped with the reason instead of failing as "unknown metric".
"""

from __future__ import annotations

from pytest_spider2v.registry import metrics

_SNOWFLAKE = "needs a Snowflake account (its result comes from, or is checked against, a live Snowflake)"

DECLARED: dict[str, str] = {
    "check_snowflake_log_message": _SNOWFLAKE,
    "is_snowflake_user_created": _SNOWFLAKE,
}

for _name, _reason in DECLARED.items():
    metrics.declare(_name, _reason)
