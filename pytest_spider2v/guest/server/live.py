"""The live view: the desktop served over VNC (x11vnc on the X display) and, for a browser,
noVNC's page and its WebSocket through websockify on :data:`PORT`, which the provider publishes
like the guest server.

Started on request, never by default: a desktop nobody watches runs nothing extra. View-only
unless asked otherwise (``--agent human`` is the one that types into it); asking again with the
other mode restarts the VNC server in that mode.
"""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass, field

from . import commands

PORT = 6080
VNC_PORT = 5900
NOVNC = "/opt/novnc"
WEBSOCKIFY = "/opt/live/bin/websockify"
#: The noVNC page a browser opens: connect at once and scale the desktop to the window.
PAGE = "vnc.html?autoconnect=1&resize=scale&reconnect=1"
START_TIMEOUT = 10.0


@dataclass
class _Live:
    vnc: subprocess.Popen | None = None
    web: subprocess.Popen | None = None
    view_only: bool = True
    lock: threading.Lock = field(default_factory=threading.Lock)


_live = _Live()


def start(view_only: bool) -> dict[str, object]:
    """Serve the display (idempotent); the port and page path the host opens."""
    with _live.lock:
        if _running(_live.vnc) and _live.view_only != view_only:
            _stop(_live.vnc)
            _live.vnc = None
        if not _running(_live.vnc):
            args = ["x11vnc", "-display", commands.desktop_env()["DISPLAY"], "-rfbport", str(VNC_PORT),
                    "-localhost", "-shared", "-forever", "-nopw", "-quiet"]
            _live.vnc = commands.launch(args + (["-viewonly"] if view_only else []))
            _live.view_only = view_only
            _wait_for_port(VNC_PORT)
        if not _running(_live.web):
            _live.web = commands.launch([WEBSOCKIFY, "--web", NOVNC, str(PORT), f"localhost:{VNC_PORT}"])
            _wait_for_port(PORT)
    page = PAGE + ("&view_only=1" if view_only else "")
    return {"port": PORT, "page": page, "view_only": view_only}


def stop() -> None:
    with _live.lock:
        for proc in (_live.vnc, _live.web):
            _stop(proc)
        _live.vnc = _live.web = None


def _running(proc: subprocess.Popen | None) -> bool:
    return proc is not None and proc.poll() is None


def _stop(proc: subprocess.Popen | None) -> None:
    if _running(proc):
        assert proc is not None
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def _wait_for_port(port: int) -> None:
    """Until something listens on ``port`` (both servers take a moment to bind)."""
    import socket

    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {START_TIMEOUT:g} s")
