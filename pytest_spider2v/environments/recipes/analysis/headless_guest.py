"""The guest server of an environment without a screen (snapshot ``analysis``).

It is the guest server every image carries (``guest.app``: the same endpoints, the same command
runner), with ``/health`` ready as soon as the server answers, since there is no X server,
window manager or AT-SPI bus to wait for, and the endpoints that need a display answering that
there is none. The harness never asks for those of an environment whose snapshot says
``display: false``; one that does is a harness error, and says so.
"""

from __future__ import annotations

import logging
import os

from flask import Flask, jsonify
from guest.app import create_app

#: Endpoints (view names) of guest.app that need a display.
SCREEN_ENDPOINTS = ("screenshot", "accessibility", "screen_size", "open_file", "activate_window", "close_window")


def create_headless_app() -> Flask:
    app = create_app()
    app.view_functions["health"] = lambda: jsonify(status="ready")
    for endpoint in SCREEN_ENDPOINTS:
        app.view_functions[endpoint] = _no_screen
    return app


def _no_screen():
    return jsonify(status="error", message="this environment has no screen (display: false)"), 501


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s guest %(levelname)s %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    create_headless_app().run(host="0.0.0.0", port=int(os.environ.get("SPIDER2V_GUEST_PORT", "5000")), threaded=True)
