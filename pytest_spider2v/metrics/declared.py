"""Metrics of the original benchmark that are known by name but not available here.

Declaring them lets task validation accept the original task files; a task that uses one is
skipped with the reason instead of failing as "unknown metric".
"""

from __future__ import annotations

from pytest_spider2v.registry import metrics

#: account (as in ``related_apps``) -> (service, metrics needing that account): their result
#: comes from, or is checked against, the live service.
NEEDS_ACCOUNT: dict[str, tuple[str, tuple[str, ...]]] = {
    "snowflake": ("Snowflake", ("is_snowflake_user_created",)),  # check_snowflake_log_message: apps/snowflake.py
}

metrics.declare_unavailable(NEEDS_ACCOUNT)
