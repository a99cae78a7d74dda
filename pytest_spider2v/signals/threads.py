"""Background threads that leave Ctrl-C to the main thread.

The kernel hands a process-wide signal such as SIGINT to any thread that does not block it.
CPython runs Python signal handlers only in the main thread, and wakes it only if the signal
interrupted a call of the main thread's own: when a helper thread (a spare container starting,
the tree fetched beside the screenshot) takes the signal, the main thread stays blocked in its
request (a setup command of two minutes) and Ctrl-C seems ignored until that returns. Threads
started here block the signals the harness stops on, so the kernel delivers them to the main
thread. Threads they start (an HTTP server's request handlers) inherit the mask.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

#: The signals that stop a run: Ctrl-C, and what ``kill`` and CI send.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


def leave_signals_to_main_thread() -> None:
    """Block the stop signals in the calling thread (an executor's ``initializer``)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def start_background(target: Callable[..., Any], *args: Any, name: str | None = None) -> threading.Thread:
    """Start a daemon thread running ``target(*args)`` with the stop signals blocked."""

    def run() -> None:
        leave_signals_to_main_thread()
        target(*args)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread
