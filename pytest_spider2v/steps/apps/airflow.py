"""Airflow web-UI setup: the original's ``astro_webui_init`` (also as ``airflow_webui_init``)
and ``astro_refresh_page`` steps.

The original (Astro CLI Airflow on port 8080) opens a new Chromium tab at the UI, waits until
the login form's ``input#username`` is editable (10 tries, 5 s apart), signs in as admin/admin
and closes the browser's first tab. Here the same runs over the DevTools port published by
``google_chrome_browser``; the sign-in waits until the page after the login (the DAGs list)
has loaded, so that the first observation of a task does not catch a half-drawn page.

Actions come as the original writes them, ``[{"type": "login", "username": "admin",
"password": "admin"}]`` (the action's credentials go over the step's), or as bare names
(``["login"]``). ``astro_refresh_page`` reloads the browser's first tab, as the original does.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.chrome import GOTO_TIMEOUT_MS, wait_for_devtools
from pytest_spider2v.steps.webui import Action, parse_actions

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

logger = logging.getLogger(__name__)

DEFAULT_URL = "http://localhost:8080"
#: The original waits for the login form 10 times, 5 s apart.
LOGIN_TRIES = 10
LOGIN_WAIT_MS = 5_000
#: After signing in: how long the landing page may take to settle.
SETTLE_TIMEOUT_MS = 30_000
KNOWN_ACTIONS = ("login",)
#: The parameters each action takes (the original's login action carries its credentials).
ACTION_PARAMS = {"login": ("username", "password")}
USERNAME_SELECTOR = "input#username"
PASSWORD_SELECTOR = "input#password"
SUBMIT_SELECTOR = "input[type=submit], button[type=submit]"
#: The DAGs list keeps its auto-refresh switch in this localStorage key ("true" = off).
AUTO_REFRESH_KEY = "dagsDisableAutoRefresh"
AUTO_REFRESH_ON = "#auto_refresh:checked"
#: Present on every page of a signed-in session (the user menu's sign-out form).
SIGNED_IN_SELECTOR = "form[action*='logout']"


def normalise_url(url: str) -> str:
    """``localhost:8080`` and ``http://localhost:8080/`` both mean the UI's root page."""
    url = (url or "").strip()
    if not url:
        raise StepError("astro_webui_init: url must not be empty")
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise StepError(f"astro_webui_init: not a web address: {url!r}")
    return url


def normalise_actions(actions: Any) -> list[Action]:
    """The actions to run, in order: names or the original's ``{"type": ..., **params}`` dicts."""
    parsed = parse_actions("astro_webui_init", actions, KNOWN_ACTIONS, params=ACTION_PARAMS)
    for action in parsed:
        for key, value in action.params.items():
            if not isinstance(value, str) or not value:
                raise StepError(f"astro_webui_init: {action.type} {key} must be a non-empty string, got {value!r}")
    return parsed


def wait_for_login_form(page: Page, tries: int = LOGIN_TRIES, wait_ms: int = LOGIN_WAIT_MS) -> bool:
    """Reload until the login form is editable (the webserver may still be starting).

    False when the page shows a signed-in session instead (there is nothing to sign in to).
    """
    from playwright.sync_api import Error as PlaywrightError

    last = "no attempt"
    for attempt in range(tries):
        try:
            page.wait_for_selector(f"{USERNAME_SELECTOR}, {SIGNED_IN_SELECTOR}", state="attached", timeout=wait_ms)
            if page.query_selector(USERNAME_SELECTOR) is None:
                return False
            if page.is_editable(USERNAME_SELECTOR):
                return True
            last = "input#username is not editable"
        except PlaywrightError as exc:
            last = str(exc).splitlines()[0]
        if attempt + 1 < tries:
            try:
                page.reload(timeout=GOTO_TIMEOUT_MS)
            except PlaywrightError as exc:
                last = str(exc).splitlines()[0]
    raise StepError(f"astro_webui_init: the Airflow login form did not appear ({last})")


def sign_in(page: Page, username: str, password: str) -> None:
    if not wait_for_login_form(page):
        logger.info("astro_webui_init: already signed in at %s", page.url)
        return
    page.fill(USERNAME_SELECTOR, username)
    page.fill(PASSWORD_SELECTOR, password)
    with page.expect_navigation(timeout=GOTO_TIMEOUT_MS):
        page.click(SUBMIT_SELECTOR)
    if page.query_selector(USERNAME_SELECTOR) is not None and "/login" in page.url:
        raise StepError(f"astro_webui_init: signing in as {username!r} failed (still on {page.url})")


def settle(page: Page) -> None:
    """Wait until the page's own requests are done (the DAGs list loads its rows by XHR)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.wait_for_load_state("networkidle", timeout=SETTLE_TIMEOUT_MS)
    except PlaywrightError as exc:
        logger.warning("astro_webui_init: %s did not settle: %s", page.url, str(exc).splitlines()[0])


def quiet_dags_list(page: Page) -> None:
    """Turn off the DAGs list's auto-refresh (a browser-side preference of the Airflow UI).

    With it on, the list re-polls every few seconds, showing loading dots and ticking its switch
    after the page's load event, so two resets would not give the same first screen. The agent
    can switch it back on; the grid and graph views refresh on their own as before.
    """
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.evaluate(f"localStorage.setItem({AUTO_REFRESH_KEY!r}, 'true')")
        if page.query_selector(AUTO_REFRESH_ON) is not None:
            page.reload(timeout=GOTO_TIMEOUT_MS)
            settle(page)
    except PlaywrightError as exc:
        logger.warning("astro_webui_init: could not turn off auto-refresh: %s", str(exc).splitlines()[0])


def open_airflow(browser: Browser, url: str, actions: list[Action], username: str, password: str) -> None:
    """New tab at ``url``, run the actions, close every other tab (the original's first tab)."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.contexts[0] if browser.contexts else browser.new_context()
    page = context.new_page()
    try:
        page.goto(url, timeout=GOTO_TIMEOUT_MS)
    except PlaywrightError as exc:  # the original retries through the login wait below
        logger.warning("astro_webui_init: opening %s failed: %s", url, str(exc).splitlines()[0])
    for action in actions:
        if action.type == "login":
            sign_in(page, action.params.get("username", username), action.params.get("password", password))
    settle(page)
    quiet_dags_list(page)
    for other in context.pages:
        if other is not page:
            other.close()
    page.bring_to_front()


@setup_steps.register("airflow_webui_init")
@setup_steps.register("astro_webui_init")
def astro_webui_init(
    ctx: TaskContext,
    listening_port: int = 9222,
    url: str = DEFAULT_URL,
    actions: Any = ("login",),
    username: str = "admin",
    password: str = "admin",
) -> None:
    """Open the Airflow UI in the guest browser and sign in (``actions``: ``[{"type": "login"}]``)."""
    from playwright.sync_api import sync_playwright

    target = normalise_url(url)
    todo = normalise_actions(actions)
    cdp = ctx.env.host_url(int(listening_port))
    wait_for_devtools(cdp)
    with sync_playwright() as p:
        open_airflow(p.chromium.connect_over_cdp(cdp), target, todo, username, password)


@setup_steps.register("astro_refresh_page")
def astro_refresh_page(ctx: TaskContext, listening_port: int = 9222) -> None:
    """Reload the browser's first tab (the original's step, used after a task changed DAGs)."""
    from playwright.sync_api import sync_playwright

    cdp = ctx.env.host_url(int(listening_port))
    wait_for_devtools(cdp)
    with sync_playwright() as p:
        refresh_first_tab(p.chromium.connect_over_cdp(cdp))


def refresh_first_tab(browser: Browser) -> None:
    from playwright.sync_api import Error as PlaywrightError

    pages = [page for context in browser.contexts for page in context.pages]
    if not pages:
        raise StepError("astro_refresh_page: the browser has no tab to reload")
    try:
        pages[0].reload(timeout=GOTO_TIMEOUT_MS)
    except PlaywrightError as exc:
        raise StepError(f"astro_refresh_page: reloading {pages[0].url} failed: {str(exc).splitlines()[0]}") from None
    settle(pages[0])
