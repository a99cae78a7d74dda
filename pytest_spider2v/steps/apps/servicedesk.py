"""Request Tracker (the ``servicedesk`` image): ``rt_webui_init`` logs the guest browser in.

Like the original's ``*_webui_init`` steps, it drives the guest Chromium over DevTools (started
by ``google_chrome_browser``): it signs in (posting RT's login form through the browser context, so
the session cookie lands in the browser), opens the task's start page in a new tab, waits until that page is rendered, and closes every other tab. The agent then finds
Chromium showing the page, logged in, with no password typed anywhere it can see.
"""

from __future__ import annotations

import logging
import time
from urllib.parse import urljoin, urlsplit

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.chrome import wait_for_devtools

logger = logging.getLogger(__name__)

DEFAULT_URL = "http://localhost:8080"
LOGIN_TRIES = 10
LOGIN_INTERVAL = 2.0
GOTO_TIMEOUT_MS = 60_000
#: RT's page header, present on every page of a signed-in session.
SIGNED_IN_SELECTOR = "#header, #main-navigation"
#: True once the page is complete, jQuery is idle and the web fonts are loaded.
SETTLED_SCRIPT = """() => document.readyState === "complete"
  && (!window.jQuery || window.jQuery.active === 0)
  && (!document.fonts || document.fonts.status === "loaded")"""
#: Runs in the login page: posts the credentials, returns the HTTP status.
LOGIN_SCRIPT = """async (creds) => {
  const body = new URLSearchParams({user: creds.user, pass: creds.pass});
  const resp = await fetch("NoAuth/Login.html", {method: "POST", body, credentials: "same-origin"});
  return resp.status;
}"""


def start_page_url(url: str, page: str | None) -> str:
    """The absolute URL of the task's start page (``page`` is a path relative to RT's root)."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise ValueError(f"rt_webui_init: url must be an http(s) URL of RT, not {url!r}")
    if not page:
        return url.rstrip("/") + "/"
    if urlsplit(page).scheme:
        raise ValueError(f"rt_webui_init: page must be a path inside RT, not {page!r}")
    return urljoin(url.rstrip("/") + "/", page.lstrip("/"))


@setup_steps.register("rt_webui_init")
def rt_webui_init(
    ctx: TaskContext,
    listening_port: int = 9222,
    url: str = DEFAULT_URL,
    page: str | None = None,
    user: str = "root",
    password: str = "password",
    wait_for: str | None = None,
) -> None:
    """Sign in to RT at ``url`` in the guest browser and leave it showing ``page``.

    ``wait_for`` is a CSS selector that must be visible before the step returns (default: RT's
    page header). Login is retried while the server is still warming up.
    """
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    target = start_page_url(url, page)
    login_url = start_page_url(url, None)
    cdp = ctx.env.host_url(listening_port)
    wait_for_devtools(cdp)
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(cdp)
        context = browser.contexts[0]
        tab = context.new_page()
        last = "no attempt"
        for _ in range(LOGIN_TRIES):
            try:
                # Post RT's login form with fetch() from the login page itself: the session
                # cookie lands in the browser, and as nothing was typed into a password field
                # Chromium offers no "Save password?" bubble.
                tab.goto(login_url, timeout=GOTO_TIMEOUT_MS, wait_until="load")
                status = tab.evaluate(LOGIN_SCRIPT, {"user": user, "pass": password})
                tab.goto(target, timeout=GOTO_TIMEOUT_MS, wait_until="load")
                if tab.locator("input[name=pass]").count() == 0 and tab.locator(SIGNED_IN_SELECTOR).count():
                    break
                last = f"login answered HTTP {status} but RT still shows its login form (wrong password?)"
            except PlaywrightError as exc:
                last = str(exc).splitlines()[0]
            time.sleep(LOGIN_INTERVAL)
        else:
            raise EnvironmentFault(f"rt_webui_init: could not sign in to {login_url} as {user}: {last}")
        tab.wait_for_selector(wait_for or SIGNED_IN_SELECTOR, state="visible", timeout=GOTO_TIMEOUT_MS)
        for other in context.pages:
            if other != tab:
                other.close()
        tab.bring_to_front()
        # RT's scripts finish laying out (menus, select widgets) just after "load"; wait until
        # the document is complete, jQuery has no request in flight and the fonts are loaded.
        # (Not "networkidle": under load it can wait for a quiet half second that never comes.)
        tab.wait_for_function(SETTLED_SCRIPT, timeout=GOTO_TIMEOUT_MS)
    logger.info("rt_webui_init: signed in as %s, showing %s", user, target)
