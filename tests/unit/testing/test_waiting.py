"""The end-to-end tests' one way to wait: the first value that meets the condition, the deadline
kept, and a failure that names what was awaited and what was seen last."""

from __future__ import annotations

import time

import pytest

from pytest_spider2v.testing.waiting import SHOWN_CHARACTERS, wait_until


def test_returns_the_first_value_that_meets_the_condition() -> None:
    values = iter([0, 3, 17, 40])
    assert wait_until(lambda: next(values), lambda v: v > 16, timeout=5, what="a big number", interval=0.01) == 17


def test_fails_at_the_deadline_naming_what_and_the_last_value() -> None:
    started = time.monotonic()
    with pytest.raises(AssertionError, match=r"waited 0.3 s for a drawn terminal; last seen: 'a frame of 3 colours'"):
        wait_until(lambda: "a frame of 3 colours", lambda v: False, timeout=0.3, what="a drawn terminal", interval=0.1)
    assert 0.3 <= time.monotonic() - started < 1.0


def test_retried_exceptions_are_not_yet_and_others_fail_at_once() -> None:
    answers = iter([ConnectionError("refused"), ConnectionError("refused"), "up"])

    def probe() -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert wait_until(probe, timeout=5, what="the port", interval=0.01, retry_on=(ConnectionError,)) == "up"
    with pytest.raises(AssertionError, match="last seen: ConnectionError: refused"):
        wait_until(lambda: (_ for _ in ()).throw(ConnectionError("refused")), timeout=0.05, what="the port",
                   interval=0.01, retry_on=(ConnectionError,))
    with pytest.raises(ValueError):
        wait_until(lambda: int("x"), timeout=5, what="a number", interval=0.01)


def test_a_long_last_value_is_cut() -> None:
    with pytest.raises(AssertionError) as failed:
        wait_until(lambda: "x" * 5000, lambda v: False, timeout=0.01, what="a short tree", interval=0.01, show=str)
    assert f"({5000 - SHOWN_CHARACTERS} more characters)" in str(failed.value)
