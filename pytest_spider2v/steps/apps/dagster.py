"""The ``dagster_webui_init`` setup step: the Dagster UI tab in the guest browser, made ready.

As in the original (reference section 2.2), the step finds the browser tab whose address starts
with ``url`` or opens one (10 tries, 3 s apart), then runs its ``actions`` in order:

* ``close_popups``: clicks the Skip, Dismiss and Close buttons that are showing (first-run
  notices, "what's new" toasts);
* ``materialize_assets``: opens the asset catalogue, reloads the definitions, selects every
  asset, launches "Materialize selected" and waits (60 s by default) until every asset has a
  materialization;
* ``execute_js``: evaluates a JavaScript snippet (``code``) in the page.

``delete_environment_variables`` of the original manages Dagster+ (cloud) environment
variables, which a local instance does not have; it is rejected with that reason.

An action is a name (``"close_popups"``) or a dict with ``type`` plus its own parameters
(``{"type": "materialize_assets", "timeout": 90}``), the shape the original's configs use.

Project extensions (optional, so original configs bind unchanged): ``path`` opens a page of the
UI (``/asset-groups``) instead of the start page when a new tab is needed, and ``wait_for`` is a
text the step waits for at the end, so that setup ends on a fully drawn page (a deterministic
accessibility tree for the reset check).

The browser runs in the guest, so ``url`` is the guest's address of the UI (localhost:3000); the
host reaches only the DevTools port (``listening_port``).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.chrome import wait_for_devtools
from pytest_spider2v.steps.webui import Action
from pytest_spider2v.steps.webui import parse_actions as parse_shared

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page

logger = logging.getLogger(__name__)

DEFAULT_URL = "http://localhost:3000"
#: The original's page-opening loop: 10 tries, 3 s apart.
PAGE_TRIES = 10
PAGE_INTERVAL = 3.0
GOTO_TIMEOUT_MS = 30_000
#: Buttons ``close_popups`` clicks when they show.
POPUP_BUTTONS = ("Skip", "Dismiss", "Close")
#: The original waits up to 60 s for the materializations.
MATERIALIZE_TIMEOUT = 60.0
#: How long ``wait_for`` waits for its text, then how long the page may settle (graph layout).
WAIT_FOR_TIMEOUT = 60.0
SETTLE_MS = 1500
#: Delay of the post-detach navigation event (see the end of ``dagster_webui_init``).
DETACH_NUDGE_MS = 1500

KNOWN_ACTIONS = ("close_popups", "materialize_assets", "execute_js")
UNSUPPORTED_ACTIONS = {
    "delete_environment_variables": "manages Dagster+ (cloud) environment variables; a local instance has none",
}


def parse_actions(actions: Any) -> list[Action]:
    """Validate the ``actions`` parameter: names or ``{"type": ..., **params}`` dicts."""
    parsed = parse_shared("dagster_webui_init", actions, KNOWN_ACTIONS, UNSUPPORTED_ACTIONS)
    for action in parsed:
        params = action.params
        if action.type == "execute_js" and not isinstance(params.get("code") or params.get("script"), str):
            raise StepError("dagster_webui_init: execute_js needs a 'code' string")
        if action.type == "materialize_assets" and "timeout" in params:
            try:
                if float(params["timeout"]) <= 0:
                    raise ValueError
            except (TypeError, ValueError):
                raise StepError(f"dagster_webui_init: materialize_assets timeout must be a positive number, got {params['timeout']!r}") from None
    return parsed


def page_url(url: str, path: str | None) -> str:
    """The address to open: ``url`` itself, or ``path`` under it."""
    if not path:
        return url
    return urljoin(url.rstrip("/") + "/", path.lstrip("/"))


def matches(page_address: str, url: str) -> bool:
    """Whether a tab shows the UI at ``url`` (same origin and path prefix)."""
    page, base = urlsplit(page_address), urlsplit(url)
    if (page.scheme, page.netloc) != (base.scheme, base.netloc):
        return False
    prefix = base.path.rstrip("/")
    return page.path == prefix or page.path.startswith(prefix + "/") or not prefix


def find_or_open_page(context: BrowserContext, url: str, target: str, tries: int = PAGE_TRIES, interval: float = PAGE_INTERVAL) -> Page:
    """The tab already showing the UI, or a new one loading ``target`` (retried while the
    web server is still coming up)."""
    from playwright.sync_api import Error as PlaywrightError

    for page in context.pages:
        if matches(page.url, url):
            page.bring_to_front()
            return page
    page = context.new_page()
    last: Exception | None = None
    for attempt in range(1, tries + 1):
        try:
            page.goto(target, timeout=GOTO_TIMEOUT_MS)
            return page
        except PlaywrightError as exc:
            last = exc
            logger.info("dagster_webui_init: %s not loaded (try %d/%d): %s", target, attempt, tries, exc)
            time.sleep(interval)
    raise StepError(f"dagster_webui_init: could not open {target} after {tries} tries: {last}")


def close_popups(page: Page) -> int:
    """Click every visible Skip / Dismiss / Close button; returns how many were clicked."""
    from playwright.sync_api import Error as PlaywrightError

    clicked = 0
    for name in POPUP_BUTTONS:
        buttons = page.get_by_role("button", name=name, exact=True)
        for i in range(buttons.count()):
            button = buttons.nth(i)
            try:
                if button.is_visible():
                    button.click(timeout=3000)
                    clicked += 1
            except PlaywrightError as exc:
                logger.info("dagster_webui_init: could not click %s: %s", name, exc)
    return clicked


def materialize_assets(page: Page, url: str, timeout: float = MATERIALIZE_TIMEOUT) -> None:
    """Reload the definitions, select every asset in the catalogue, materialize them, and wait
    until none of them is left unmaterialized."""
    from playwright.sync_api import Error as PlaywrightError

    page.goto(page_url(url, "/assets"), timeout=GOTO_TIMEOUT_MS)
    reload = page.get_by_role("button", name="Reload definitions")
    try:
        reload.first.click(timeout=10_000)
        page.wait_for_timeout(1000)
    except PlaywrightError:
        logger.info("dagster_webui_init: no 'Reload definitions' button; carrying on")
    page.get_by_role("checkbox").first.check(timeout=15_000)
    page.get_by_role("button", name="Materialize selected").first.click(timeout=10_000)
    launch = page.get_by_role("button", name="Launch run")
    if launch.count() and launch.first.is_visible():
        launch.first.click()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(2000)
        page.reload()
        try:
            page.get_by_role("checkbox").first.wait_for(timeout=10_000)
        except PlaywrightError:
            continue
        if page.get_by_text("Never materialized").count() == 0 and page.get_by_text("Materializing").count() == 0:
            return
    raise StepError(f"dagster_webui_init: assets were not all materialized within {timeout:.0f}s")


#: The title of Dagster's HTML shell; each page replaces it with its own once its route renders.
SHELL_TITLE = "Dagster"


def wait_for_route_title(page: Page, timeout: float = WAIT_FOR_TIMEOUT) -> None:
    """Wait until the page has set its own title ("Global Asset Lineage", ...): the tab and window
    titles agents see follow it, and a window covered next (gedit) would keep the shell's title
    in the first screen of one reset and not of another."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if page.title() != SHELL_TITLE:
                return
        except PlaywrightError:
            pass
        page.wait_for_timeout(250)
    logger.warning("dagster_webui_init: %s kept the title %r for %.0fs", page.url, SHELL_TITLE, timeout)


def wait_for_spinners(page: Page, timeout: float = WAIT_FOR_TIMEOUT) -> None:
    """Wait until no Dagster loading spinner shows: asset nodes fetch their live state after the
    graph has rendered, and a page covered by another window (gedit) stops updating, so a
    spinner left at that moment would stay on the first screen."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    spinners = page.locator(".bp5-spinner")
    while time.monotonic() < deadline:
        try:
            if spinners.count() == 0:
                return
        except PlaywrightError:
            pass
        page.wait_for_timeout(250)
    logger.warning("dagster_webui_init: loading spinners still showing on %s after %.0fs", page.url, timeout)


def run_actions(page: Page, url: str, actions: list[Action]) -> None:
    for action in actions:
        if action.type == "close_popups":
            n = close_popups(page)
            logger.info("dagster_webui_init: closed %d popup button(s)", n)
        elif action.type == "materialize_assets":
            materialize_assets(page, url, float(action.params.get("timeout", MATERIALIZE_TIMEOUT)))
        elif action.type == "execute_js":
            page.evaluate(action.params.get("code") or action.params["script"])


@setup_steps.register("dagster_webui_init")
def dagster_webui_init(
    ctx: TaskContext,
    listening_port: int = 9222,
    url: str = DEFAULT_URL,
    actions: list[Any] | None = None,
    path: str | None = None,
    wait_for: str | None = None,
) -> None:
    """Find or open the Dagster UI tab, run the actions, and wait for ``wait_for`` if given."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    parsed = parse_actions(actions)
    if not url.startswith(("http://", "https://")):
        raise StepError(f"dagster_webui_init: url must be an http(s) address, got {url!r}")
    devtools = ctx.env.host_url(listening_port)
    wait_for_devtools(devtools)
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(devtools)
        context = browser.contexts[0]
        page = find_or_open_page(context, url, page_url(url, path))
        run_actions(page, url, parsed)
        if wait_for:
            try:
                page.get_by_text(wait_for).first.wait_for(timeout=WAIT_FOR_TIMEOUT * 1000)
            except PlaywrightError as exc:
                raise StepError(f"dagster_webui_init: {wait_for!r} did not show on {page.url}: {exc}") from None
            wait_for_spinners(page)
            wait_for_route_title(page)
            page.wait_for_timeout(SETTLE_MS)
        # Chromium greys the reload button's menu in and out with "a debugger is attached"
        # but refreshes it only on the tab's next navigation event, so without one the first
        # screen would depend on when this connection ends. A same-URL replaceState shortly
        # after we detach is such an event: the toolbar settles in its normal state.
        page.evaluate(f"setTimeout(() => history.replaceState(history.state, '', location.href), {DETACH_NUDGE_MS})")
    time.sleep(DETACH_NUDGE_MS / 1000 + 1.0)
