"""HTTP endpoints of the guest server (reference §4.1), plus ``/health`` for readiness polling.

Request and reply shapes are those :mod:`pytest_spider2v.environments.http` sends and reads, which in
turn follow the original harness's server, so its task scripts and getters carry over.
"""

from __future__ import annotations

import asyncio
import io
import os
import platform
import subprocess
import sys
from pathlib import Path

from flask import Flask, jsonify, request, send_file

from . import commands, live, recording, screen, stillness

A11Y_TIMEOUT = 120.0
A11Y_CHECK_TIMEOUT = 5.0
#: ``/accessibility?walk=``: the fast walk (default) or the original one, kept as its baseline.
WALKS = ("fast", "naive")


def _guest_path(raw: str) -> Path:
    return Path(os.path.expandvars(os.path.expanduser(raw)))


def _naive_tree() -> tuple[str | None, str]:
    """(XML, "") or (None, why) from the original walk, in a process of its own as it was."""
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "guest.a11y_naive"], capture_output=True, text=True, timeout=A11Y_TIMEOUT,
            env=commands.desktop_env(), cwd=commands.HOME,
        )
    except subprocess.TimeoutExpired:
        return None, f"tree walk exceeded {A11Y_TIMEOUT:g} s"
    if proc.returncode != 0:
        return None, proc.stderr[-2000:]
    return proc.stdout, ""


def _fast_tree() -> tuple[str | None, str]:
    from . import a11y  # D-Bus and AT-SPI: only images with a screen have them

    try:
        return a11y.tree_xml(A11Y_TIMEOUT), ""
    except (TimeoutError, asyncio.TimeoutError):
        return None, f"tree walk exceeded {A11Y_TIMEOUT:g} s"
    except Exception as exc:  # the bus gone, an application dying mid-walk beyond recovery
        return None, f"{type(exc).__name__}: {exc}"


def _tree(path: Path) -> dict:
    if path.is_dir():
        children = sorted(path.iterdir(), key=lambda p: p.name)
        return {"type": "directory", "name": path.name, "children": [_tree(c) for c in children]}
    return {"type": "file", "name": path.name}


def _wmctrl(action: str) -> tuple[str, int]:
    data = request.get_json(force=True)
    flags = "-" + ("x" if data.get("by_class") else "") + ("F" if data.get("strict") else "") + action
    result = commands.run(["wmctrl", flags, data["window_name"]], timeout=10)
    if result.returncode != 0:
        return f"no window matches {data['window_name']!r}", 404
    return "Window handled successfully", 200


def _execute():
    data = request.get_json(force=True)
    if "command" not in data:
        return jsonify(status="error", message="missing 'command'"), 400
    result = commands.run(data["command"], bool(data.get("shell")), float(data.get("timeout") or 300))
    status = "success" if result.finished else "error"
    return jsonify(status=status, output=result.output, error=result.error, returncode=result.returncode)


#: ``prctl`` option: whether the process may be traced, dumped, or its files opened by others.
PR_SET_DUMPABLE = 4


def untraceable() -> None:
    """Keep the agent's processes out of the server's own: they run as the same user, and Linux
    lets a process trace (and so rewrite), or take the sockets of, a process of its own user only
    while that process is dumpable. Commands the server starts are dumpable again once they exec,
    as any program is."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE, 0) failed")


def create_app() -> Flask:
    untraceable()
    app = Flask("spider2v-guest")

    @app.get("/health")
    def health():
        from . import a11y

        problem = screen.desktop_problem() or a11y.registry_problem(A11Y_CHECK_TIMEOUT)
        if problem:
            return jsonify(status="starting", reason=problem), 503
        return jsonify(status="ready")

    @app.post("/live")
    def live_view():
        """Serve the desktop to a browser (noVNC) until the container goes; ``view_only``."""
        data = request.get_json(force=True) or {}
        try:
            return jsonify(live.start(view_only=bool(data.get("view_only", True))))
        except (OSError, RuntimeError) as exc:
            return jsonify(status="error", message=str(exc)), 500

    @app.post("/recording/start")
    def recording_start():
        path = _guest_path((request.get_json(force=True) or {}).get("path", "~/.spider2v/episode.mp4"))
        try:
            recording.start(path)
        except OSError as exc:
            return jsonify(status="error", message=str(exc)), 500
        return jsonify(status="recording", path=str(path))

    @app.post("/recording/stop")
    def recording_stop():
        finished = recording.stop()
        if finished is None:
            return jsonify(status="error", message="nothing is being recorded"), 409
        return jsonify(finished)

    @app.post("/settle")
    def settle():
        """Return once the screen has not changed for ``quiet`` seconds (or at ``timeout``)."""
        data = request.get_json(force=True) or {}
        settled, waited = stillness.wait_until_still(
            screen.frame, quiet=float(data.get("quiet", 1.0)), timeout=float(data.get("timeout", 10.0)),
            tolerance=float(data.get("tolerance", stillness.TOLERANCE)))
        return jsonify(settled=settled, waited=round(waited, 3))

    @app.get("/screenshot")
    def screenshot():
        return send_file(io.BytesIO(screen.screenshot_png()), mimetype="image/png")

    @app.get("/accessibility")
    def accessibility():
        walk = request.args.get("walk", "fast")
        if walk not in WALKS:
            return jsonify(status="error", message=f"walk must be one of {', '.join(WALKS)}"), 400
        xml, problem = _fast_tree() if walk == "fast" else _naive_tree()
        if xml is None:
            return jsonify(status="error", message=problem), 500
        return jsonify(AT=xml)

    app.post("/execute")(_execute)
    app.add_url_rule("/setup/execute", "setup_execute", _execute, methods=["POST"])

    @app.post("/setup/launch")
    def launch():
        data = request.get_json(force=True)
        try:
            commands.launch(data["command"], bool(data.get("shell")))
        except OSError as exc:
            return jsonify(status="error", message=str(exc)), 500
        return f"{data['command']} launched successfully"

    @app.post("/file")
    def file():
        path = _guest_path(request.form.get("file_path", ""))
        if not path.is_file():
            return jsonify(error="File not found", path=str(path)), 404
        return send_file(path, as_attachment=True, download_name=path.name)

    @app.post("/setup/upload")
    def upload():
        if "file_path" not in request.form or "file_data" not in request.files:
            return jsonify(status="error", message="need form field file_path and file file_data"), 400
        path = _guest_path(request.form["file_path"])
        path.parent.mkdir(parents=True, exist_ok=True)
        request.files["file_data"].save(path)
        return "File Uploaded"

    @app.post("/setup/open_file")
    def open_file():
        path = _guest_path(request.get_json(force=True)["path"])
        if not path.exists():
            return jsonify(error="File not found", path=str(path)), 404
        commands.launch(["xdg-open", str(path)])
        return "File opened successfully"

    @app.post("/setup/activate_window")
    def activate_window():
        return _wmctrl("a")

    @app.post("/setup/close_window")
    def close_window():
        return _wmctrl("c")

    @app.post("/screen_size")
    def screen_size():
        width, height = screen.screen_size()
        return jsonify(width=width, height=height)

    @app.get("/platform")
    def platform_name():
        return platform.system()

    @app.post("/list_directory")
    def list_directory():
        path = _guest_path((request.get_json(force=True) or {}).get("path", ""))
        if not path.is_dir():
            return jsonify(error="Directory not found", path=str(path)), 404
        return jsonify(directory_tree=_tree(path))

    return app
