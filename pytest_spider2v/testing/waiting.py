"""Waiting for something that is still changing: a desktop being drawn, a window being mapped or
focused, an accessibility tree filling in, a service coming up, a page rendering.

An end-to-end test that judges one sample of such a thing passes on the machine it was written
on and fails on a slower one. :func:`wait_until` samples until the condition holds or a deadline
passes; then it fails naming what it waited for and what it saw last, so a failure says whether
the thing never came or came wrong. It is the one way the end-to-end tests wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: How much of the last value a failure shows: enough to see what was wrong, not a whole tree.
SHOWN_CHARACTERS = 2000


def wait_until(probe: Callable[[], T], condition: Callable[[T], object] = bool, *, timeout: float, what: str,
               interval: float = 0.5, retry_on: tuple[type[Exception], ...] = (),
               show: Callable[[T], str] = repr) -> T:
    """The first value of ``probe()`` for which ``condition`` holds (by default: a truthy value).

    ``probe`` is called at once, then every ``interval`` seconds, and a last time at the deadline
    (no sleep runs past it). An exception of a ``retry_on`` type counts as "not yet" (a port that
    does not answer yet, a page closing while it is listed); any other exception, an
    AssertionError of the probe included (a run that ended first), fails at once.

    After ``timeout`` seconds: AssertionError ``waited T s for WHAT; last seen: ...``, the last
    value as ``show`` renders it (``repr`` by default; a frame or a tree wants a summary) or the
    last exception.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = probe()
        except retry_on as exc:
            last_seen = f"{type(exc).__name__}: {exc}"
        else:
            if condition(value):
                return value
            last_seen = show(value)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"waited {timeout:g} s for {what}; last seen: {_shortened(last_seen)}")
        time.sleep(min(interval, remaining))


def _shortened(text: str) -> str:
    if len(text) <= SHOWN_CHARACTERS:
        return text
    return f"{text[:SHOWN_CHARACTERS]}... ({len(text) - SHOWN_CHARACTERS} more characters)"
