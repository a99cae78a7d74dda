"""Video of the X display: ffmpeg grabbing the screen into an MP4 from ``start`` to ``stop``.

H.264 at a few frames a second with the fastest preset: an episode is mostly still screens, and
the encoder must leave the desktop's CPU to the applications being recorded. The file is
finished (its index written) when ``stop`` returns, so the host can fetch it at once.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

from . import commands, screen

FRAMES_PER_SECOND = 5
STOP_TIMEOUT = 20.0

_lock = threading.Lock()
_recording: tuple[subprocess.Popen, Path, float] | None = None


def start(path: Path, fps: int = FRAMES_PER_SECOND) -> None:
    """Start recording into ``path`` (a recording already running is stopped first)."""
    global _recording
    stop()
    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = screen.screen_size()
    args = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "x11grab", "-draw_mouse", "1",
            "-framerate", str(fps), "-video_size", f"{width}x{height}", "-i", commands.desktop_env()["DISPLAY"],
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "stillimage", "-pix_fmt", "yuv420p",
            "-movflags", "+faststart", str(path)]
    with _lock:
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                cwd=commands.HOME, env=commands.desktop_env(), start_new_session=True)
        _recording = (proc, path, time.monotonic())


def stop() -> dict[str, object] | None:
    """Finish the recording: its path, seconds recorded and ffmpeg's complaints (None if none ran)."""
    global _recording
    with _lock:
        if _recording is None:
            return None
        proc, path, started = _recording
        _recording = None
    seconds = time.monotonic() - started
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # ffmpeg finishes the file on SIGINT
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
    errors = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    return {"path": str(path), "seconds": round(seconds, 2), "returncode": proc.returncode, "errors": errors[-2000:]}
