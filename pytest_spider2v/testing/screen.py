"""A stand-in for environments *with* a screen, for tests of watching, recording, human and
replay runs through the whole pipeline without Docker.

It is :mod:`.local`'s folder-backed guest, plus what a desktop adds: a screenshot (a small PNG),
a screen that is always settled, a live view whose URL names the mode it was asked for, and a
recorder that writes a placeholder MP4 when stopped. Python
actions run without pyautogui (the host has none). ``SPIDER2V_STANDIN_RECORDING=broken`` makes
starting a recording fail, as it would in an image without ffmpeg.

In a pytest run, ``register()`` (from a ``conftest.py``) makes it ``--provider screen``.
"""

from __future__ import annotations

import io
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import EnvironmentFault, ExecResult
from pytest_spider2v.testing.local import LocalEnvironment, LocalProvider

#: What the placeholder video holds: the start of an MP4's first box, enough to be told apart.
PLACEHOLDER_MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"
LIVE_PORT = 6080
#: The screen's width and height: those of its screenshot.
SCREEN_SIZE = (64, 48)


def _png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", SCREEN_SIZE, "teal").save(buffer, format="PNG")
    return buffer.getvalue()


@dataclass
class ScreenEnvironment(LocalEnvironment):
    """A folder-backed guest with a screen stand-in: a still picture, with no windows on it."""

    display: bool = True
    recording_since: tuple[str, float] | None = None
    views: list[bool] = field(default_factory=list)

    def run_python(self, code: str, *, timeout: float = 90.0) -> ExecResult:
        return self.execute(["python3", "-c", code], timeout=timeout)

    def screenshot(self) -> bytes:
        return _png()

    def wait_settled(self, quiet: float = 1.0, timeout: float = 10.0) -> bool:
        return True

    def accessibility_tree(self, walk: str = "fast") -> str:
        return "<desktop-frame/>"

    def screen_size(self) -> tuple[int, int]:
        return SCREEN_SIZE

    def live_view(self, *, view_only: bool = True) -> str:
        self.views.append(view_only)
        return f"http://127.0.0.1:{LIVE_PORT}/vnc.html?autoconnect=1" + ("&view_only=1" if view_only else "")

    def start_recording(self, guest_path: str) -> None:
        if os.environ.get("SPIDER2V_STANDIN_RECORDING") == "broken":
            raise EnvironmentFault("local: POST /recording/start -> 500: ffmpeg: not found")
        self.recording_since = (guest_path, time.monotonic())

    def stop_recording(self) -> dict[str, Any]:
        if self.recording_since is None:
            raise EnvironmentFault("local: POST /recording/stop -> 409: nothing is being recorded")
        path, started = self.recording_since
        self.recording_since = None
        self.upload(PLACEHOLDER_MP4, path)
        return {"path": path, "seconds": round(time.monotonic() - started, 2), "returncode": 255, "errors": ""}

    def open(self, path: str) -> None:
        """A missing file is an error, as in the guest; an existing one opens nowhere: the screen
        is a picture."""
        if not self._host(path).is_file():
            raise EnvironmentFault(f"{self.name}: open {path}: no such file")

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        """No window to raise on a picture; the guest, too, carries on when none matches."""

    def _host(self, guest_path: str) -> Path:
        if guest_path.startswith("/tmp/"):  # the guest's /tmp is the home's tmp/, not the host's
            return self.home / "tmp" / guest_path[len("/tmp/"):]
        return super()._host(guest_path)


class ScreenProvider(LocalProvider):
    """:class:`LocalProvider`, handing out folders with a screen stand-in."""

    def new_environment(self, home: Path) -> ScreenEnvironment:
        return ScreenEnvironment(home)


def register() -> None:
    from pytest_spider2v.registry import providers

    providers.add("screen", lambda owner, worker, **options: ScreenProvider(**options))
