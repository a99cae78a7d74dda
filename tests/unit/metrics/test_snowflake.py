"""Snowflake's metrics: ``check_snowflake_log_message`` (severity and message equal) and
``is_snowflake_user_created`` (fields, roles, the password the getter tried); and their near
misses, each scoring below 1."""

from __future__ import annotations

from pathlib import Path

from pytest_spider2v.metrics.apps.snowflake import check_snowflake_log_message, is_snowflake_user_created
from pytest_spider2v.near_misses.apps.snowflake import log_message, user

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


USER_RULE = {"NAME": "SNOWMAN", "LOGIN_NAME": "SNOWSTORM", "MUST_CHANGE_PASSWORD": "false",
             "PASSWORD": "20!4@sn0wf@ll", "ROLE": "SYSADMIN"}
USER = {"NAME": "SNOWMAN", "LOGIN_NAME": "SNOWSTORM", "MUST_CHANGE_PASSWORD": "false", "COMMENT": "null",
        "ROLE": ["PUBLIC", "SYSADMIN"], "PASSWORD_ACCEPTED": True}


def test_a_user_with_the_ruled_fields_roles_and_an_accepted_password_scores_1() -> None:
    assert is_snowflake_user_created(dict(USER), USER_RULE) == 1.0
    assert is_snowflake_user_created({**USER, "PASSWORD_ACCEPTED": False}, USER_RULE) == 0.0
    assert is_snowflake_user_created({**USER, "ROLE": ["PUBLIC"]}, USER_RULE) == 0.0
    assert is_snowflake_user_created({**USER, "NAME": "SNOWMEN"}, USER_RULE) == 0.0
    assert is_snowflake_user_created(None, USER_RULE) == 0.0


def test_every_near_miss_of_a_right_user_scores_below_1(tmp_path: Path) -> None:
    variants = list(user(dict(USER), USER_RULE, {}, tmp_path))
    assert sorted({v.kind for v in variants}) == ["field changed", "password refused", "role not granted"]
    assert len(variants) == 5 and all(is_snowflake_user_created(v.result, USER_RULE) < 1 for v in variants)
