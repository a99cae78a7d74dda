"""SIGTERM stops a run as Ctrl-C does: it raises KeyboardInterrupt naming the signal, is forwarded
once to the workers, and a repeated SIGTERM cannot cut the cleanup short. Real signals, sent to
this process and to a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from pytest_spider2v.signals import stopping


@pytest.fixture
def restore() -> object:
    handlers = {signum: signal.getsignal(signum) for signum in stopping.NAMES}
    yield
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def test_sigterm_raises_keyboard_interrupt_naming_it_and_forwards_it_once(restore: object) -> None:
    worker = subprocess.Popen(["sleep", "60"])
    before = signal.getsignal(signal.SIGTERM)
    put_back = stopping.install(forward=lambda: [worker.pid])
    try:
        with pytest.raises(KeyboardInterrupt, match="^SIGTERM$"):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises here, at once
        assert stopping.stop_reason() == "SIGTERM"
        assert worker.wait(timeout=10) == -signal.SIGTERM
        os.kill(os.getpid(), signal.SIGTERM)  # repeated: ignored, the cleanup goes on
        time.sleep(0.1)
    finally:
        put_back()
        worker.kill()
    assert stopping.stop_reason() is None
    assert signal.getsignal(signal.SIGTERM) is before  # as it was


def test_ctrl_c_is_named_and_a_repeated_one_raises_again(restore: object) -> None:
    before = signal.getsignal(signal.SIGINT)
    put_back = stopping.install()
    try:
        for _ in range(2):
            with pytest.raises(KeyboardInterrupt, match=r"^Ctrl-C \(SIGINT\)$"):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(5)
    finally:
        put_back()
    assert signal.getsignal(signal.SIGINT) is before
