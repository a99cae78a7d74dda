"""Helper threads leave the stop signals to the main thread (so Ctrl-C interrupts its request)."""

from __future__ import annotations

import signal
import threading
from concurrent.futures import ThreadPoolExecutor

from pytest_spider2v.signals.threads import STOP_SIGNALS, leave_signals_to_main_thread, start_background


def blocked() -> set[signal.Signals]:
    return signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_background_thread_blocks_the_stop_signals_and_the_caller_keeps_its_mask() -> None:
    seen: list[set[signal.Signals]] = []
    start_background(lambda: seen.append(blocked())).join()
    assert STOP_SIGNALS <= seen[0]
    assert not STOP_SIGNALS & blocked()


def test_threads_a_background_thread_starts_inherit_the_mask() -> None:
    """A ThreadingHTTPServer's request handlers are started by its serving thread."""
    seen: list[set[signal.Signals]] = []

    def parent() -> None:
        child = threading.Thread(target=lambda: seen.append(blocked()))
        child.start()
        child.join()

    start_background(parent).join()
    assert STOP_SIGNALS <= seen[0]


def test_an_executor_with_the_initializer_blocks_them_too() -> None:
    with ThreadPoolExecutor(max_workers=1, initializer=leave_signals_to_main_thread) as pool:
        assert STOP_SIGNALS <= pool.submit(blocked).result()
