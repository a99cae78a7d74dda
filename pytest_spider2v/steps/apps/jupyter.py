"""JupyterLab setup step: open a document in the guest browser and wait until it is usable.

``jupyterlab_open_notebook`` starts the guest Chromium with remote debugging (as
``google_chrome_browser`` does), opens ``http://localhost:<port>/lab/tree/<path>`` as its only
tab and then waits, over DevTools, until JupyterLab has really rendered the document: the
application is up (the image exposes it as ``window.jupyterapp``), the current widget is that
document with its content loaded and, for a notebook, every cell is in the page and the kernel is
connected and idle, with no dialog open, and the document has the keyboard focus (JupyterLab
sometimes leaves it on the file browser's first entry after loading: the step gives it to the
document). The condition must hold twice in a row, so the first screenshot and accessibility tree
the agent gets are the same on every reset.

The JupyterLab server itself is started by the task with ``spider2v-service start jupyter``.

The original's tasks start JupyterLab themselves (``launch`` of ``jupyter lab <path>``), and it
opens its page in the running Chromium seconds later. ``launch`` of such a command waits here
until that page is there and what it opened is ready, under the same condition.
"""

from __future__ import annotations

import logging
import posixpath
import re
import shlex
import time
from typing import TYPE_CHECKING
from urllib.parse import quote

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.builtin import after_launch
from pytest_spider2v.steps.chrome import browser_command, open_tabs, wait_for_devtools

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

logger = logging.getLogger(__name__)

#: JupyterLab's root directory in the image (``--ServerApp.root_dir``).
ROOT_DIR = "/home/user"
DEFAULT_PORT = 8888
DEFAULT_TIMEOUT = 120.0
#: How long the ready condition must keep holding before the step ends.
STABLE_SECONDS = 1.0

#: Evaluated in the page with [path, kernel]; a string says what is still missing, true means ready.
_READY_JS = """([path, kernel]) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return 'JupyterLab has not started';
  if (document.querySelector('.jp-Dialog')) return 'a dialog is open: ' + document.querySelector('.jp-Dialog').innerText.slice(0, 200);
  const w = app.shell.currentWidget;
  if (!w || !w.context) return 'no document is open';
  if (w.context.path !== path) return 'the current document is ' + w.context.path;
  if (!w.context.isReady) return 'the document is loading';
  const nb = w.content;
  if (nb && Array.isArray(nb.widgets) && w.sessionContext) {
    if (nb.widgets.length === 0) return 'the notebook has no cells yet';
    if (w.node.querySelectorAll('.jp-Cell').length !== nb.widgets.length) return 'cells are still rendering';
    if (kernel) {
      const k = w.sessionContext.session && w.sessionContext.session.kernel;
      if (!k) return 'no kernel';
      if (k.connectionStatus !== 'connected') return 'kernel ' + k.connectionStatus;
      if (k.status !== 'idle') return 'kernel ' + k.status;
    }
  }
  if (document.querySelector('.Toastify__toast')) return 'a notification is showing';
  if (!w.node.contains(document.activeElement)) return 'the document does not have the keyboard focus';
  return true;
}"""
#: What the ready condition says when only the keyboard focus is elsewhere.
_NOT_FOCUSED = "the document does not have the keyboard focus"
#: Gives the current document the keyboard focus, as clicking its tab would.
_FOCUS_JS = "() => { const shell = window.jupyterapp.shell; shell.activateById(shell.currentWidget.id); }"


#: JupyterLab names its main-area widgets ``id-<uuid4>``, new on every page load, and Chromium
#: exposes DOM ids in the accessibility tree. Once the page is ready they are renamed, in document
#: order, to ``jp-spider2v-<n>`` (references in aria/for attributes follow), so that two resets give
#: the same tree. Lumino reads a widget's id from its node, so the application follows too.
_STABLE_IDS_JS = """() => {
  const re = /^id-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const renamed = new Map();
  for (const el of document.querySelectorAll('[id]')) {
    if (re.test(el.id)) {
      const id = 'jp-spider2v-' + (renamed.size + 1);
      renamed.set(el.id, id);
      el.id = id;
      // Chromium re-reads a node's attributes for assistive technology only when something
      // it watches changes: toggle aria-busy so that the new id reaches the AT-SPI tree.
      const busy = el.getAttribute('aria-busy');
      el.setAttribute('aria-busy', busy === 'true' ? 'false' : 'true');
      setTimeout(() => busy === null ? el.removeAttribute('aria-busy') : el.setAttribute('aria-busy', busy), 100);
    }
  }
  const refs = ['aria-controls', 'aria-labelledby', 'aria-describedby', 'aria-owns', 'aria-activedescendant',
                'aria-details', 'aria-flowto', 'for'];
  for (const name of refs) {
    for (const el of document.querySelectorAll('[' + name + ']')) {
      const value = el.getAttribute(name);
      const mapped = value.split(/\\s+/).map(t => renamed.get(t) || t).join(' ');
      if (mapped !== value) el.setAttribute(name, mapped);
    }
  }
  return renamed.size;
}"""


def lab_path(path: str, root_dir: str = ROOT_DIR) -> str:
    """The document's path as JupyterLab names it: relative to the server's root directory.

    ``path`` may be relative to the root, absolute inside it, or start with ``~/`` (the user's home,
    which is the root in the image).
    """
    if not isinstance(path, str) or not path.strip():
        raise StepError("jupyterlab_open_notebook: path must name a file, e.g. 'analysis.ipynb'")
    path = path.strip()
    if path.startswith("~/"):
        path = posixpath.join("/home/user", path[2:])
    root = posixpath.normpath(root_dir)
    if posixpath.isabs(path):
        normal = posixpath.normpath(path)
        if normal == root or not normal.startswith(root.rstrip("/") + "/"):
            raise StepError(f"jupyterlab_open_notebook: {path!r} is not a file under JupyterLab's root {root_dir!r}")
        relative = posixpath.relpath(normal, root)
    else:
        relative = posixpath.normpath(path)
    if relative in {".", ""} or relative.startswith("../") or relative == "..":
        raise StepError(f"jupyterlab_open_notebook: {path!r} is not a file under JupyterLab's root {root_dir!r}")
    return relative


def notebook_url(path: str, port: int = DEFAULT_PORT, root_dir: str = ROOT_DIR) -> str:
    """``http://localhost:<port>/lab/tree/<path>``, each path segment URL-quoted."""
    port = int(port)
    if not 0 < port < 65536:
        raise StepError(f"jupyterlab_open_notebook: bad port {port}")
    return f"http://localhost:{port}/lab/tree/{quote(lab_path(path, root_dir), safe='/')}"


def wait_until_ready(page: Page, path: str, kernel: bool, timeout: float) -> None:
    """Poll the page until the ready condition holds twice, ``STABLE_SECONDS`` apart."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    state: object = "not checked"
    held_since: float | None = None
    while time.monotonic() < deadline:
        try:
            state = page.evaluate(_READY_JS, [path, kernel])
        except PlaywrightError as exc:  # navigation in progress, page reloading
            state = f"page not scriptable: {exc}"
        if state is True:
            held_since = held_since or time.monotonic()
            if time.monotonic() - held_since >= STABLE_SECONDS:
                return
        else:
            held_since = None
            if state == _NOT_FOCUSED:
                page.evaluate(_FOCUS_JS)
        time.sleep(0.25)
    raise StepError(f"JupyterLab: {path} not ready after {timeout:.0f}s: {state}")


@setup_steps.register("jupyterlab_open_notebook")
def jupyterlab_open_notebook(
    ctx: TaskContext,
    path: str,
    port: int = DEFAULT_PORT,
    root_dir: str = ROOT_DIR,
    kernel: bool = True,
    debugging_port: int = 1337,
    listening_port: int = 9222,
    timeout: float = DEFAULT_TIMEOUT,
) -> None:
    """Open ``path`` in JupyterLab in the guest Chromium and wait until it is rendered (and, for a
    notebook with ``kernel``, its kernel idle). Chromium stays open with DevTools on
    ``listening_port``, like ``google_chrome_browser`` leaves it."""
    from playwright.sync_api import sync_playwright

    url = notebook_url(path, port, root_dir)
    relative = lab_path(path, root_dir)
    timeout = float(timeout)
    if timeout <= 0:
        raise StepError(f"jupyterlab_open_notebook: timeout must be positive, got {timeout}")
    ctx.env.launch(browser_command(debugging_port, full_screen=False, incognito=False))
    ctx.env.launch(["socat", f"tcp-listen:{listening_port},fork,reuseaddr", f"tcp:localhost:{debugging_port}"])
    devtools = ctx.env.host_url(listening_port)
    wait_for_devtools(devtools)
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(devtools)
        open_tabs(browser, [url])
        page = browser.contexts[0].pages[0]
        wait_until_ready(page, relative, bool(kernel), timeout)
        renamed = page.evaluate(_STABLE_IDS_JS)
        wait_until_ready(page, relative, bool(kernel), timeout)
    logger.info("jupyterlab_open_notebook: renamed %s random element ids", renamed)
    logger.info("jupyterlab_open_notebook: %s ready in %.1fs", relative, time.monotonic() - started)


#: ``jupyter lab`` (or ``jupyter-lab``) and its arguments, up to the end of the shell command.
_LAUNCHED_LAB = re.compile(r"\bjupyter[ -]lab\b([^;&|]*)")
#: Where the original's tasks leave Chromium's DevTools (``google_chrome_browser``'s listening port).
LAUNCH_DEVTOOLS_PORT = 9222
#: A JupyterLab page's address.
_LAB_URL = re.compile(r"^https?://[^/]+/lab(/|\?|$)")
_STARTED_JS = "() => !!(window.jupyterapp && window.jupyterapp.shell)"
_RESTORED_JS = "async () => { await window.jupyterapp.restored; return true; }"


def launched_words(line: str) -> list[str]:
    """The arguments of a ``jupyter lab`` command line that are not options: its path among them
    (an option's value too, which the caller tells apart by asking the guest what is a file)."""
    match = _LAUNCHED_LAB.search(line)
    if match is None:
        return []
    try:
        words = shlex.split(match.group(1))
    except ValueError:
        words = match.group(1).split()
    return [word for word in words if not word.startswith("-")]


@after_launch(_LAUNCHED_LAB.pattern)
def wait_for_launched_lab(ctx: TaskContext, line: str, timeout: float = DEFAULT_TIMEOUT) -> None:
    """After ``launch`` of ``jupyter lab [path]``: wait until its page is open in the guest Chromium
    and, when it opens a file, that document is ready (a notebook's kernel idle); else until the
    application has restored its layout. Without a browser to watch there is nothing to wait for;
    a page that never comes is logged, as the original would have carried on."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    if "--no-browser" in line:
        return
    devtools = ctx.env.host_url(LAUNCH_DEVTOOLS_PORT)
    try:
        wait_for_devtools(devtools, timeout=5)
    except EnvironmentFault:
        logger.info("launch: JupyterLab started with no browser to watch; not waiting for its page")
        return
    document = None
    for word in launched_words(line):
        if ctx.env.execute(["test", "-f", word]).ok:
            try:
                document = lab_path(word)
            except StepError:
                pass  # outside the root JupyterLab serves: its page is all there is to wait for
            break
    deadline = time.monotonic() + timeout
    with sync_playwright() as p:
        page = _lab_page(p.chromium.connect_over_cdp(devtools), deadline)
        if page is None:
            logger.warning("launch: JupyterLab's page did not open within %.0fs", timeout)
            return
        if document is not None:
            wait_until_ready(page, document, document.endswith(".ipynb"), max(1.0, deadline - time.monotonic()))
            return
        try:
            while not page.evaluate(_STARTED_JS):
                if time.monotonic() >= deadline:
                    logger.warning("launch: JupyterLab did not start within %.0fs", timeout)
                    return
                page.wait_for_timeout(250)
            page.evaluate(_RESTORED_JS)
        except PlaywrightError as exc:
            logger.warning("launch: JupyterLab's page: %s", exc)


def _lab_page(browser: Browser, deadline: float) -> Page | None:
    """The first page showing JupyterLab, once one does (pages opened after connecting attach
    while Playwright waits, hence ``wait_for_timeout`` rather than a sleep)."""
    while time.monotonic() < deadline:
        pages = [page for context in browser.contexts for page in context.pages]
        for page in pages:
            if _LAB_URL.match(page.url):
                return page
        if pages:
            pages[0].wait_for_timeout(250)
        else:
            time.sleep(0.25)
    return None


__all__ = ["jupyterlab_open_notebook", "lab_path", "launched_words", "notebook_url", "wait_for_launched_lab"]
