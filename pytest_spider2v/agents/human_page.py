"""The person's page for ``--agent human``: the task's instruction, its desktop (the live view,
input enabled) and the DONE and FAIL buttons, served on 127.0.0.1.

One page per process (per xdist worker) for every task the process runs, so a person keeps one
tab open: it polls ``/state`` and reloads when the next task begins. The endpoints, which a test
or a script may use as the page does:

* ``GET /`` the page; ``GET /state`` the task, instruction, live view URL, whether a verdict is
  awaited, and the episode's deadline (epoch seconds), as JSON;
* ``POST /verdict`` with ``verdict`` (``DONE`` or ``FAIL``) and, for a task that asks a question,
  ``answer``, as JSON or a form: 200 when taken, 409 when no task awaits one, 400 for anything else.

No script or style is fetched from anywhere: the machines this runs on may have no internet.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

from pytest_spider2v.signals.threads import start_background

VERDICTS = ("DONE", "FAIL")


@dataclass(frozen=True)
class Verdict:
    """What the person said: DONE (with the answer, for a question) or FAIL, and where."""

    word: str
    answer: str | None = None
    source: str = "page"  #: "page" or "terminal"


class PersonPage:
    """The page's state and its HTTP server (a daemon thread: it ends with the process)."""

    def __init__(self, port: int = 0) -> None:
        self._lock = threading.Lock()
        self._task: str | None = None
        self._instruction = ""
        self._live_url: str | None = None
        self._deadline: float | None = None
        self._awaiting = False
        self._verdict: Verdict | None = None
        self._serial = 0  #: one more for every task begun: the page reloads when it changes
        self._server = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self._server.daemon_threads = True
        start_background(self._server.serve_forever, name="spider2v-person-page")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def begin(self, task: str, instruction: str) -> None:
        """A new task (or a new attempt at one): no view yet, and a verdict is awaited."""
        with self._lock:
            self._task, self._instruction, self._live_url, self._deadline = task, instruction, None, None
            self._awaiting, self._verdict = True, None
            self._serial += 1

    def show(self, live_url: str) -> None:
        with self._lock:
            self._live_url = live_url

    def set_deadline(self, deadline: float) -> None:
        with self._lock:
            self._deadline = deadline

    def take(self) -> Verdict | None:
        """The verdict given since the task began, once; None while there is none."""
        with self._lock:
            verdict, self._verdict = self._verdict, None
            if verdict is not None:
                self._awaiting = False
            return verdict

    def give(self, verdict: Verdict) -> bool:
        """Hand in a verdict (from the page or the terminal); False when no task awaits one."""
        with self._lock:
            if not self._awaiting or self._verdict is not None:
                return False
            self._verdict = verdict
            return True

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def state(self) -> dict[str, Any]:
        with self._lock:
            return {"task": self._task, "instruction": self._instruction, "live_url": self._live_url,
                    "awaiting_verdict": self._awaiting and self._verdict is None, "deadline": self._deadline,
                    "serial": self._serial}

    def html(self) -> str:
        state = self.state()
        if state["task"] is None:
            body = "<p>No task has started yet; this page reloads when one does.</p>"
            return PAGE.format(title="human agent", serial=state["serial"], side=body, view="")
        view = (f'<iframe src="{escape(state["live_url"])}" title="the desktop"></iframe>' if state["live_url"]
                else "<p>The desktop is being prepared; this page reloads when it is ready.</p>")
        side = (f"<h1>{escape(state['task'])}</h1><pre>{escape(state['instruction'])}</pre>"
                '<p id="left"></p>'
                '<label for="answer">Answer (only for a task that asks a question)</label>'
                '<textarea id="answer" rows="4"></textarea>'
                '<p><button id="done" onclick="send(\'DONE\')">DONE</button> '
                '<button id="fail" onclick="send(\'FAIL\')">FAIL</button></p><p id="status"></p>')
        return PAGE.format(title=escape(state["task"]), serial=state["serial"], side=side, view=view)


def _handler(page: PersonPage) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            if self.path in ("/", "/index.html"):
                self._reply(HTTPStatus.OK, page.html().encode(), "text/html; charset=utf-8")
            elif self.path == "/state":
                self._json(HTTPStatus.OK, page.state())
            else:
                self._json(HTTPStatus.NOT_FOUND, {"message": "no such page"})

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/verdict":
                self._json(HTTPStatus.NOT_FOUND, {"message": "no such page"})
                return
            fields = self._fields()
            word = str(fields.get("verdict", "")).strip().upper()
            if word not in VERDICTS:
                self._json(HTTPStatus.BAD_REQUEST, {"message": "verdict must be DONE or FAIL"})
                return
            answer = str(fields.get("answer") or "").strip() or None
            if not page.give(Verdict(word, answer if word == "DONE" else None, "page")):
                self._json(HTTPStatus.CONFLICT, {"message": "no task is waiting for a verdict"})
                return
            self._json(HTTPStatus.OK, {"message": f"{word} received: the task is being evaluated"})

        def _fields(self) -> dict[str, Any]:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
            if "json" in (self.headers.get("Content-Type") or ""):
                try:
                    data = json.loads(raw or "{}")
                except ValueError:
                    return {}
                return data if isinstance(data, dict) else {}
            return {key: values[-1] for key, values in parse_qs(raw).items()}

        def _json(self, status: HTTPStatus, data: dict[str, Any]) -> None:
            self._reply(status, json.dumps(data).encode(), "application/json")

        def _reply(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the run's terminal is no place for an access log

    return Handler


PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>
body{{margin:0;display:flex;height:100vh;font:14px sans-serif}}
#side{{width:22em;padding:0 1em;overflow:auto;border-right:1px solid #ccc}}
#view{{flex:1;display:flex}} iframe{{flex:1;border:0}}
pre{{white-space:pre-wrap}} textarea{{width:100%}} h1{{font-size:16px}}
button{{font-size:16px;padding:.4em 1.2em}} #done{{background:#cfc}} #fail{{background:#fcc}}
</style></head>
<body><div id="side">{side}</div><div id="view">{view}</div>
<script>
const serial = {serial};
async function send(word) {{
  if (!confirm(word + ": end this task now?")) return;
  const answer = document.getElementById("answer");
  const reply = await fetch("/verdict", {{method: "POST", headers: {{"Content-Type": "application/json"}},
    body: JSON.stringify({{verdict: word, answer: answer ? answer.value : ""}})}});
  document.getElementById("status").textContent = (await reply.json()).message;
}}
setInterval(async () => {{
  const state = await (await fetch("/state")).json();
  const shown = document.querySelector("iframe") !== null;
  if (state.serial !== serial || (state.live_url !== null) !== shown) location.reload();
  const left = document.getElementById("left");
  if (left && state.deadline) {{
    const seconds = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
    left.textContent = "Time left: " + Math.floor(seconds / 60) + " min " + (seconds % 60) + " s";
  }}
}}, 2000);
</script></body></html>
"""
