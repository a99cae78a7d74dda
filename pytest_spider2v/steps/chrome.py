"""The ``google_chrome_browser`` setup step: a guest browser the host can drive over CDP.

As in the original, the browser listens for DevTools on ``debugging_port`` inside the guest
and ``socat`` re-exposes it on ``listening_port``, which the provider publishes to the host.
The host then attaches Playwright to open the task's start pages.

The original opens ``https://www.bing.com/`` in most tasks as a cosmetic start page. There is
no internet here, and a page that cannot load would hold the step for the whole 60 s goto
timeout, so pages that need the internet are replaced by ``about:blank`` (and logged).

Playwright and httpx are imported inside the functions that use them: setup steps are registered
at start-up, and only runs that drive a browser should pay for loading them.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext

if TYPE_CHECKING:
    from playwright.sync_api import Browser

logger = logging.getLogger(__name__)

#: How long the browser may take to answer on the DevTools port.
CONNECT_TIMEOUT = 60.0
CONNECT_INTERVAL = 0.25
#: The original's ``page.goto`` timeout.
GOTO_TIMEOUT_MS = 60_000
#: How long the browser's own start tab may take to appear and load, when a task opens no page.
START_PAGE_TIMEOUT = 30.0
#: Whether the start tab is ready: Chromium's New Tab page (``ntp-app``) fills in its shortcut
#: tiles from the browser's data after its load event; the tiles always end with "Add shortcut".
#: Any other page is ready once loaded.
NEW_TAB_PAGE_READY = """() => {
    const app = document.querySelector('ntp-app');
    if (!app) return true;
    const tiles = app.shadowRoot && app.shadowRoot.querySelector('cr-most-visited');
    return !!(tiles && tiles.shadowRoot && tiles.shadowRoot.querySelector('#addShortcut'));
}"""
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}
LOCAL_SCHEMES = {"file", "about", "data", "chrome"}


def is_offline_url(url: str) -> bool:
    """Whether a page can load without the internet (guest-local servers and files)."""
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return parts.scheme in {"http", "https"} and (parts.hostname or "") in LOCAL_HOSTS


def browser_command(debugging_port: int, full_screen: bool, incognito: bool) -> list[str]:
    """The original's command line; the image's ``google-chrome`` adds the container flags."""
    command = ["google-chrome", f"--remote-debugging-port={debugging_port}"]
    if incognito:
        command.append("--incognito")
    if full_screen:
        command.append("--start-maximized")
    return command


def wait_for_devtools(url: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Poll the DevTools version endpoint: cheaper and clearer than retrying a CDP connect."""
    import httpx

    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            resp = httpx.get(f"{url}/json/version", timeout=5)
            if resp.status_code == 200:
                return
            last = f"HTTP {resp.status_code}"
        except httpx.HTTPError as exc:
            last = repr(exc)
        time.sleep(CONNECT_INTERVAL)
    raise EnvironmentFault(f"browser DevTools at {url} did not answer within {timeout:.0f}s ({last})")


def open_tabs(browser: Browser, urls: list[str]) -> None:
    """Open each URL in a new tab of the default context, then close every other tab.

    The original closes ``pages[0]``, the browser's start tab. We close whatever we did not
    open, because right after start-up the start tab may attach only after our first tab.
    """
    from playwright.sync_api import Error as PlaywrightError

    context = browser.contexts[0]
    opened = []
    for url in urls:
        target = url
        if not is_offline_url(url):
            logger.info("google_chrome_browser: skipped %s (needs the internet); opened about:blank", url)
            target = "about:blank"
        page = context.new_page()
        opened.append(page)
        try:
            page.goto(target, timeout=GOTO_TIMEOUT_MS)
        except PlaywrightError as exc:
            logger.warning("google_chrome_browser: opening %s failed: %s", target, exc)
    for page in context.pages:
        if page not in opened:
            page.close()


def wait_start_page(browser: Browser, timeout: float = START_PAGE_TIMEOUT) -> None:
    """Wait until the browser's own start tab (the New Tab page) has loaded and filled in.

    A task that names no start page gets the browser as it starts. Its start tab attaches and
    loads a moment after DevTools answer, and the New Tab page shows its shortcut tiles a moment
    after that; without this wait the setup could end, and the first observation be taken, at
    any of these points: an empty document in one reset, the page without its tiles or with
    them in the next. A tab that is not ready in time is logged, not an error (the agent can
    still work in it).
    """
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    context = browser.contexts[0] if browser.contexts else None
    while context is not None and not context.pages and time.monotonic() < deadline:
        time.sleep(CONNECT_INTERVAL)
    for page in context.pages if context is not None else []:
        try:
            page.wait_for_load_state("load", timeout=max(deadline - time.monotonic(), 1.0) * 1000)
            page.wait_for_function(NEW_TAB_PAGE_READY, timeout=max(deadline - time.monotonic(), 1.0) * 1000)
        except PlaywrightError as exc:
            logger.warning("google_chrome_browser: the start tab did not load: %s", exc)


@setup_steps.register("google_chrome_browser")
def google_chrome_browser(
    ctx: TaskContext,
    debugging_port: int = 1337,
    listening_port: int = 9222,
    urls: list[str] | None = None,
    full_screen: bool = False,
    incognito: bool = False,
) -> None:
    """Start the guest browser with remote debugging, expose it, and open the start pages.

    Playwright is disconnected at the end (the driver stops) but the browser keeps running
    for the agent, the later web-UI steps and the evaluation getters.
    """
    ctx.env.launch(browser_command(debugging_port, full_screen, incognito))
    ctx.env.launch(["socat", f"tcp-listen:{listening_port},fork,reuseaddr", f"tcp:localhost:{debugging_port}"])
    url = ctx.env.host_url(listening_port)
    wait_for_devtools(url)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(url)
        if urls:
            open_tabs(browser, urls)
        else:
            wait_start_page(browser)
