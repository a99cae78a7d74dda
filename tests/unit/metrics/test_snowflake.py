"""``check_snowflake_log_message``: severity and message equal, or 0; and its near misses, each
scoring below 1."""

from __future__ import annotations

from pathlib import Path

from pytest_spider2v.metrics.apps.snowflake import check_snowflake_log_message
from pytest_spider2v.near_misses.apps.snowflake import log_message

RULE = {"severity": "INFO", "message": "Logging from Python function."}


def test_the_same_severity_and_message_score_1_and_anything_else_0() -> None:
    assert check_snowflake_log_message(dict(RULE), RULE) == 1.0
    assert check_snowflake_log_message({**RULE, "severity": "WARN"}, RULE) == 0.0
    assert check_snowflake_log_message({**RULE, "message": "Logging from Python."}, RULE) == 0.0
    assert check_snowflake_log_message(None, RULE) == 0.0


def test_every_near_miss_of_a_right_log_line_scores_below_1(tmp_path: Path) -> None:
    variants = list(log_message(dict(RULE), RULE, {}, tmp_path))
    assert [v.kind for v in variants] == ["severity changed", "message changed", "no log line"]
    assert all(check_snowflake_log_message(v.result, RULE) < 1 for v in variants)
