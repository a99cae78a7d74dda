"""HTTP endpoints of the guest server (reference §4.1), plus ``/health`` for readiness polling.

Request and reply shapes are those :mod:`pytest_spider2v.environment` sends and reads, which in
turn follow the original harness's server, so its task scripts and getters carry over.
"""

from __future__ import annotations

import io
import os
import platform
import subprocess
import sys
from pathlib import Path

from flask import Flask, jsonify, request, send_file

from . import commands, screen

A11Y_TIMEOUT = 120.0
A11Y_CHECK_TIMEOUT = 5.0


def _guest_path(raw: str) -> Path:
    return Path(os.path.expandvars(os.path.expanduser(raw)))


def _a11y(*args: str, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "guest.a11y", *args], capture_output=True, text=True, timeout=timeout,
        env=commands.desktop_env(), cwd=commands.HOME,
    )


def _registry_problem() -> str | None:
    try:
        proc = _a11y("--check", timeout=A11Y_CHECK_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "AT-SPI registry does not answer"
    if proc.returncode != 0:
        last_line = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return f"AT-SPI registry: {last_line}"
    return None


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


def create_app() -> Flask:
    app = Flask("spider2v-guest")

    @app.get("/health")
    def health():
        problem = screen.desktop_problem() or _registry_problem()
        if problem:
            return jsonify(status="starting", reason=problem), 503
        return jsonify(status="ready")

    @app.get("/screenshot")
    def screenshot():
        return send_file(io.BytesIO(screen.screenshot_png()), mimetype="image/png")

    @app.get("/accessibility")
    def accessibility():
        try:
            proc = _a11y(timeout=A11Y_TIMEOUT)
        except subprocess.TimeoutExpired:
            return jsonify(status="error", message=f"tree walk exceeded {A11Y_TIMEOUT:g} s"), 500
        if proc.returncode != 0:
            return jsonify(status="error", message=proc.stderr[-2000:]), 500
        return jsonify(AT=proc.stdout)

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
