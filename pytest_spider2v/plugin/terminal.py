"""Lines a running task shows in the terminal at once, under capture and under xdist alike: the
URL of its live view is of use only while the task runs, so a report after the test is too late.

Without xdist the line goes through pytest's terminal writer with capture suspended, as live
logging does. An xdist worker's output reaches the controller's terminal only with its reports,
at the end of each test; but a worker's standard error is the controller's, so a worker writes
the line there, tagged with its name, on a line of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

import pytest

from pytest_spider2v.plugin.workers import worker_id


def announcer(config: pytest.Config) -> Callable[[str], None]:
    """A function that shows one line in the terminal of the run ``config`` belongs to."""

    def announce(line: str) -> None:
        capture: Any = config.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled() if capture is not None else nullcontext():
            worker = worker_id(config)
            reporter: Any = config.pluginmanager.getplugin("terminalreporter")
            if worker or reporter is None:
                # a newline first: the controller may be in the middle of a line of progress dots
                sys.stderr.write(f"\n[{worker}] {line}\n" if worker else f"{line}\n")
                sys.stderr.flush()
            else:
                reporter.ensure_newline()
                reporter.write_line(line)

    return announce
