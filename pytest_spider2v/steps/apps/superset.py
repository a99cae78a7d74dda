"""Apache Superset setup steps: ``superset_webui_init`` (reference section 2.2).

The original attaches to the guest Chromium over CDP; if no tab's URL starts with ``url`` it
opens one and signs in as admin/admin (up to 10 tries, 3 s apart), then waits up to 30 s for
the welcome page's link. A tab that already shows Superset is left alone, as in the original.

Here the sign-in keeps Superset's ``next`` redirect, so a ``url`` deeper than the site root
(``http://localhost:8088/chart/list/``) lands on that page once signed in: tasks use it to start
on a page that renders the same way on every reset. The step then waits until the page has no
network traffic left (lists and charts are filled by XHR after the first paint).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.chrome import GOTO_TIMEOUT_MS, wait_for_devtools

if TYPE_CHECKING:
    from playwright.sync_api import Page

logger = logging.getLogger(__name__)

#: The original's login loop: 10 tries, 3 s apart; then up to 30 s for the welcome link.
LOGIN_TRIES = 10
LOGIN_INTERVAL = 3.0
WELCOME_TIMEOUT_MS = 30_000
#: Extra settling time for the page's XHR (lists, charts) after the sign-in.
IDLE_TIMEOUT_MS = 30_000
DEFAULT_URL = "http://localhost:8088"


class SupersetLoginError(EnvironmentFault):
    """The Superset web UI did not let admin sign in."""


def site_root(url: str) -> str:
    """``scheme://host:port`` of a Superset URL (the prefix an existing tab must start with)."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise ValueError(f"superset_webui_init: url must be an http(s) URL, got {url!r}")
    return f"{parts.scheme}://{parts.netloc}"


def normalise_url(url: str) -> str:
    """The page to open: the given URL, with a trailing slash on a bare site root."""
    site_root(url)  # validates
    parts = urlsplit(url)
    return url if parts.path not in {"", "/"} else site_root(url) + "/"


def login_url(url: str) -> str:
    """Superset's sign-in page that returns to ``url`` afterwards (FAB honours ``next``)."""
    root = site_root(url)
    target = normalise_url(url)
    if target == root + "/":
        return root + "/login/"
    return f"{root}/login/?next={target}"


def is_login_page(page_url: str) -> bool:
    return urlsplit(page_url).path.rstrip("/").endswith("/login")


def find_tab(pages: list[Page], url: str) -> Page | None:
    """The first tab whose URL starts with ``url`` (the original's test), or None."""
    for page in pages:
        if page.url.startswith(url):
            return page
    return None


def sign_in(page: Page, url: str, username: str, password: str) -> None:
    """Fill Superset's sign-in form, retrying like the original, and wait for the app page."""
    from playwright.sync_api import Error as PlaywrightError

    last = "no attempt"
    for attempt in range(1, LOGIN_TRIES + 1):
        try:
            page.goto(login_url(url), timeout=GOTO_TIMEOUT_MS)
            if is_login_page(page.url):
                page.fill("input#username", username, timeout=10_000)
                page.fill("input#password", password, timeout=10_000)
                page.click("[type=submit]", timeout=10_000)
                page.wait_for_url(lambda u: not is_login_page(u), timeout=WELCOME_TIMEOUT_MS)
            # The navigation bar's brand link (the original's "welcome link") is on every page.
            page.wait_for_selector("#app a, a[href*='/superset/welcome']", timeout=WELCOME_TIMEOUT_MS)
            if normalise_url(page.url) != normalise_url(url) and urlsplit(url).path not in {"", "/"}:
                page.goto(normalise_url(url), timeout=GOTO_TIMEOUT_MS)
            return
        except PlaywrightError as exc:
            last = str(exc).splitlines()[0]
            logger.info("superset_webui_init: sign-in attempt %d failed: %s", attempt, last)
            time.sleep(LOGIN_INTERVAL)
    raise SupersetLoginError(f"superset_webui_init: could not sign in to {url} as {username!r}: {last}")


@setup_steps.register("superset_webui_init")
def superset_webui_init(
    ctx: TaskContext,
    listening_port: int = 9222,
    url: str = DEFAULT_URL,
    username: str = "admin",
    password: str = "admin",
) -> None:
    """Open the Superset web UI in the guest browser, signed in as admin (original semantics)."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    normalise_url(url)  # fail on a bad URL before touching the browser
    cdp = ctx.env.host_url(listening_port)
    wait_for_devtools(cdp)
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(cdp)
        context = browser.contexts[0]
        if find_tab(context.pages, url) is not None:
            logger.info("superset_webui_init: a tab already shows %s; nothing to do", url)
            return
        blank = [pg for pg in context.pages if pg.url in {"about:blank", "chrome://newtab/", "chrome://new-tab-page/", ""}]
        page = context.new_page()
        sign_in(page, url, username, password)
        # The browser's empty start tab would only add an "about:blank" tab to the strip.
        for other in blank:
            other.close()
        page.bring_to_front()
        try:
            page.wait_for_load_state("networkidle", timeout=IDLE_TIMEOUT_MS)
        except PlaywrightError as exc:
            logger.info("superset_webui_init: page did not settle: %s", str(exc).splitlines()[0])
