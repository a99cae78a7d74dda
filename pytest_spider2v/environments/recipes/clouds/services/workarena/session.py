"""WorkArena's task session, inside the guest: one ServiceNow task held from the setup step to the
evaluation, as the original harness holds its ``WORKARENA_ENV`` between ``workarena_task_init``
and ``workarena_task_result``.

It runs in its own venv (/opt/workarena), because browsergym pins a Playwright the host's
harness does not use, and attaches to the guest's Chromium over DevTools on this machine, so
the task's pages are the ones the agent sees. The host talks to it over HTTP on the published
port ``--port`` (bound to 127.0.0.1 on the host): the instance's ``SNOW_*`` settings arrive in
the setup request's body and are never logged or written.

Requests are served one at a time on the main thread: Playwright's sync API is not
thread-safe. Routes (JSON in, JSON out; an error is ``{"error": ...}`` with status 500):

* ``GET /health``: ``{"task": <class name or null>}``.
* ``POST /setup`` ``{task_name, task_kwargs, cdp_url, settings}``: closes any task, makes the
  named WorkArena task with the original's seed (gymnasium's generator from 999, whose first
  int32 seeds the task), sets it up on a new tab (the browser's first tab is closed, as the
  original does) and dismisses ServiceNow's "Enable Analytics" dialog. Gives ``{goal, task}``.
* ``POST /template_record`` ``{fields}``: the task's template record's values of ``fields``.
* ``POST /pages``: reloads every tab and gives their URLs (the original reloads before matching
  the address bar, since a tab's URL is stale until then).
* ``POST /validate`` ``{page, answer, close}``: the task's own ``validate`` on tab ``page``, with
  the chat's messages; ``answer`` is appended as the assistant's last message for the tasks that
  answer in the chat (KnowledgeBaseSearchTask). Gives ``{reward, info}``; ``close`` tears the task
  down (WorkArena deletes the user it made).
* ``POST /close``: tears the task down without validating it.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

#: The original's fixed seed for choosing a task's example ("do not modify this line").
SEED = 999
#: Tasks that answer in the chat: the original appends the answer file's text as a message.
CHAT_ANSWER_TASKS = {"KnowledgeBaseSearchTask"}
GREETING = "Hi! I am your UI assistant, I can perform web tasks for you. What can I help you with?"
DOM_WAIT_MS = 3_000
ANALYTICS_NO = ('div[role="document"][class="now-modal-dialog"] div[class="now-modal-footer"] button')

logger = logging.getLogger("workarena-session")


class Session:
    """The one task of this environment, its browser connection and its chat."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.context: Any = None
        self.task: Any = None
        self.messages: list[dict[str, str]] = []

    def setup(self, task_name: str, task_kwargs: dict[str, Any], cdp_url: str,
              settings: dict[str, str]) -> dict[str, Any]:
        import numpy as np
        from browsergym.workarena import ALL_WORKARENA_TASKS
        from gymnasium.utils import seeding
        from playwright.sync_api import sync_playwright

        self.close()
        entry = {task.__name__: task for task in ALL_WORKARENA_TASKS}.get(task_name)
        if entry is None:
            raise ValueError(f"task_name {task_name!r} is not a WorkArena task")
        os.environ.update({key: str(value) for key, value in settings.items() if key.startswith("SNOW_")})
        generator, _ = seeding.np_random(SEED)
        task_seed = int(generator.integers(np.iinfo(np.int32).max + 1))

        self.playwright = sync_playwright().start()
        self.playwright.selectors.set_test_id_attribute("bid")  # browsergym's element ids
        self.context = self.playwright.chromium.connect_over_cdp(cdp_url).contexts[0]
        page = self.context.new_page()
        if self.context.pages[0] is not page:
            self.context.pages[0].close()
        self.task = entry(seed=task_seed, **task_kwargs)
        goal, _ = self.task.setup(page=page)
        self.messages = [{"role": "assistant", "message": GREETING}]
        if goal:
            self.messages.append({"role": "user", "message": goal})
        self._wait_loaded()
        self._dismiss_analytics(page)
        return {"goal": goal, "task": task_name}

    def template_record(self, fields: list[str]) -> dict[str, Any]:
        record = self._task().template_record
        missing = [name for name in fields if name not in record]
        if missing:
            raise KeyError(f"the task's template record has no {', '.join(missing)}")
        return {name: record[name] for name in fields}

    def pages(self) -> dict[str, Any]:
        self._task()
        urls = []
        for page in self.context.pages:
            page.reload()
            urls.append(page.url)
        return {"urls": urls}

    def validate(self, page: int, answer: str | None, close: bool) -> dict[str, Any]:
        task = self._task()
        try:
            messages = list(self.messages)
            if answer is not None and type(task).__name__ in CHAT_ANSWER_TASKS:
                messages.append({"role": "assistant", "message": answer})
            reward, _, _, info = task.validate(self.context.pages[page], messages)
            return {"reward": float(reward), "info": json.loads(json.dumps(info, default=str))}
        finally:
            if close:
                self.close()

    def close(self) -> None:
        for step in (lambda: self.task and self.task.teardown(), lambda: self.playwright and self.playwright.stop()):
            try:
                step()
            except Exception as exc:  # noqa: BLE001 -- teardown goes on, as the original's close()
                logger.warning("closing the WorkArena task: %s", exc)
        self.playwright = self.context = self.task = None
        self.messages = []

    def _task(self) -> Any:
        if self.task is None:
            raise RuntimeError("no WorkArena task is set up in this environment (workarena_task_init)")
        return self.task

    def _wait_loaded(self) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for page in self.context.pages:
            for frame in page.frames:
                try:
                    frame.wait_for_load_state("domcontentloaded", timeout=DOM_WAIT_MS)
                except PlaywrightTimeout:
                    pass

    @staticmethod
    def _dismiss_analytics(page: Any) -> None:
        """ServiceNow's "Enable Analytics" dialog, when it appears, answered "No"."""
        from playwright.sync_api import expect

        try:
            button = page.locator(ANALYTICS_NO).filter(has_text="No")
            expect(button).to_be_enabled()
            button.click()
        except Exception:  # noqa: BLE001 -- the dialog is absent on most instances
            pass


SESSION = Session()
ROUTES = {
    "/setup": lambda body: SESSION.setup(body["task_name"], body.get("task_kwargs") or {},
                                         body["cdp_url"], body.get("settings") or {}),
    "/template_record": lambda body: SESSION.template_record(list(body["fields"])),
    "/pages": lambda body: SESSION.pages(),
    "/validate": lambda body: SESSION.validate(int(body["page"]), body.get("answer"), bool(body.get("close", True))),
    "/close": lambda body: SESSION.close() or {},
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path != "/health":
            self._reply(404, {"error": f"no route {self.path}"})
            return
        self._reply(200, {"task": type(SESSION.task).__name__ if SESSION.task else None})

    def do_POST(self) -> None:
        route = ROUTES.get(self.path)
        if route is None:
            self._reply(404, {"error": f"no route {self.path}"})
            return
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            self._reply(200, route(body))
        except Exception as exc:  # noqa: BLE001 -- every failure goes back to the harness, named
            logger.warning("%s failed: %s: %s", self.path, type(exc).__name__, exc)
            self._reply(500, {"error": f"{type(exc).__name__}: {exc}"})

    def _reply(self, status: int, document: dict[str, Any]) -> None:
        data = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 -- the base class's name
        logger.info("%s %s", self.command, self.path)  # never the body: it carries the settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=9230)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    HTTPServer((args.host, args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
