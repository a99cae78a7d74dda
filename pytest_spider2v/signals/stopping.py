"""How a run is stopped: Ctrl-C, and SIGTERM (what ``kill`` and a CI timeout send) the same way.

Python's default ends a process on SIGTERM at once: no fixture is torn down, so the environments
of the run stay up and the records of the tasks under way keep saying "running". Here both
signals raise :class:`KeyboardInterrupt` in the main thread (background threads leave them to it:
:mod:`.threads`), so pytest ends the session as it does on Ctrl-C, tears the
fixtures down, and each unfinished task's record says the run was stopped, and by which signal.

The first SIGTERM is forwarded to the processes ``forward`` names (the controller's xdist
workers, which a ``kill`` of the controller alone does not reach) and raises; a repeated SIGTERM
(a process group signalled, then each worker by its controller) is ignored, so it cannot cut a
cleanup short. A repeated Ctrl-C raises again, as pytest's own handler does: the person insists.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable, Iterable
from types import FrameType

log = logging.getLogger(__name__)

#: How each stop signal is named in records.
NAMES = {signal.SIGINT: "Ctrl-C (SIGINT)", signal.SIGTERM: "SIGTERM"}

_reason: str | None = None


def stop_reason() -> str | None:
    """The signal that stopped this process's run, as records name it; None while it runs."""
    return _reason


def install(forward: Callable[[], Iterable[int]] = tuple) -> Callable[[], None]:
    """Handle SIGINT and SIGTERM as described above (from the main thread; elsewhere a no-op,
    since Python runs signal handlers only there). Gives the function that puts the previous
    handlers back and forgets the stop, so a run in the same process (pytester's in-process
    runs) starts afresh and leaves its caller's handling as it found it."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handle(signum: int, frame: FrameType | None) -> None:
        global _reason
        first = _reason is None
        if first:
            _reason = NAMES[signal.Signals(signum)]
            for pid in forward():
                _forward(pid)
        elif signum == signal.SIGTERM:
            log.info("a second SIGTERM is ignored: the run is already stopping")
            return
        raise KeyboardInterrupt(_reason)

    previous = {signum: signal.signal(signum, handle) for signum in NAMES}

    def restore() -> None:
        global _reason
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _reason = None

    return restore


def _forward(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass  # that worker has ended already
