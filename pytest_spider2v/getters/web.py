"""Getters that read the guest browser and the dbt profile (reference section 3.3).

The browser getters reach the guest's Chromium two ways, as in the original: the address bar
through the accessibility tree, and pages through the DevTools port (9222, forwarded by the
``google_chrome_browser`` step) with Playwright. A browser that is not running, or a page that
is not open, is a result the agent produced (the getter gives None or its "failed" string),
not a harness error.

One quirk is fixed deliberately (reference section 9.7): the original chose between the
application names "Chromium" and "Google Chrome" from the *host's* CPU architecture. Here the
address bar is looked up under whichever of the two the *guest's* tree actually contains.

Playwright is imported inside the functions that drive it: getters are registered at start-up,
and only runs that read a page should pay for loading it.
"""

from __future__ import annotations

import logging
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, TypedDict

from pytest_spider2v.getters.builtin import ScriptSpec, local_cache_path, vm_script_output
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

logger = logging.getLogger(__name__)

#: Application names the guest browser may have in the accessibility tree, in lookup order.
BROWSER_APPS = ("Google Chrome", "Chromium")
ADDRESS_BAR = "Address and search bar"
DEFAULT_GOTO_PREFIX = "https://"
DEVTOOLS_PORT = 9222
#: The original's Playwright timeouts: page loads (goto) and element checks.
GOTO_TIMEOUT_MS = 60_000
HTML_CHECK_TIMEOUT_S = 5.0
#: Per-tab wait for a page to settle while searching for an app's home page. The original
#: waited Playwright's default 30 s per tab; tabs that never go network-idle are skipped sooner.
SETTLE_TIMEOUT_MS = 10_000
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")


# -- the address bar ----------------------------------------------------------------------------


def address_bar_text(tree_xml: str) -> str | None:
    """Text of the browser's address bar in an accessibility tree, or None.

    The first application named like a browser that has an address bar wins, so a guest
    running Chromium answers under "Chromium" whatever the host is.
    """
    try:
        root = ET.fromstring(tree_xml)
    except ET.ParseError as exc:
        logger.error("accessibility tree is not XML: %s", exc)
        return None
    for app_name in BROWSER_APPS:
        for app in root.iter("application"):
            if app.get("name") != app_name:
                continue
            for entry in app.iter("entry"):
                if entry.get("name") == ADDRESS_BAR and entry.text:
                    return entry.text.strip() or None
    return None


def with_prefix(text: str, prefix: str) -> str:
    """The address bar hides the scheme (``https://``, ``http://``, ``file://``); the task's
    ``goto_prefix`` puts it back.

    Text that already carries one (a URL being edited, ``chrome://...``) is kept as it is; the
    original would have prepended the prefix to it too, giving an unusable URL.
    """
    return text if SCHEME.match(text) else f"{prefix}{text}"


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class ActiveUrlSpec(TypedDict, total=False):
    goto_prefix: str


class BrowserSpec(TypedDict, total=False):
    type: str
    listening_port: int


class UrlCheckSpec(ScriptSpec, ActiveUrlSpec, total=False):
    pass


class ActiveTabSpec(ActiveUrlSpec, BrowserSpec, total=False):
    pass


class HtmlCheckSpec(ScriptSpec, BrowserSpec, total=False):
    timeout: float
    css_paths: list[str]


class HomePageSpec(BrowserSpec, total=False):
    url: str
    title: str


class DbtProfilesSpec(TypedDict):
    dirs: list[str]
    dest: str


@getters.register("active_url_from_accessTree")
def active_url_from_accessTree(ctx: TaskContext, spec: ActiveUrlSpec) -> str | None:
    """URL in the guest browser's address bar, with ``goto_prefix`` (default ``https://``)."""
    text = address_bar_text(ctx.env.accessibility_tree())
    if text is None:
        logger.info("active_url_from_accessTree: no browser address bar in the accessibility tree")
        return None
    return with_prefix(text, spec.get("goto_prefix", DEFAULT_GOTO_PREFIX))


def check_url_tokens(script_output: str, url: str) -> str:
    """The original's token report: each comma-separated token of the script's output must be a
    substring of the URL (after ``:`` -> ``%3A`` and ``+`` -> ``%2B``). Each token adds
    ``"<token> check succeed；"`` or ``"<token> check failed；"`` (full-width semicolon)."""
    report = ""
    for token in script_output.split(","):
        encoded = token.strip().replace(":", "%3A").replace("+", "%2B")
        report += f"{token} check {'succeed' if encoded in url else 'failed'}；"
    return report


@getters.register("validate_correct_url")
def validate_correct_url(ctx: TaskContext, spec: UrlCheckSpec) -> str | None:
    """Run the task's script (it prints the expected URL parts) and check them against the
    address bar. None when the browser shows no URL."""
    output = vm_script_output(ctx, spec)
    url = active_url_from_accessTree(ctx, spec)
    if url is None:
        return None
    return check_url_tokens(output, url)


# -- pages over DevTools ------------------------------------------------------------------------


@contextmanager
def guest_browser(ctx: TaskContext, spec: BrowserSpec) -> Iterator[Browser | None]:
    """Playwright attached to the guest browser, or None when no browser answers."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    port = int(spec.get("listening_port", DEVTOOLS_PORT))
    url = ctx.env.host_url(port)  # an unpublished port is a harness fault: let it raise
    with sync_playwright() as p:
        try:
            browser = p.chromium.connect_over_cdp(url)
        except PlaywrightError as exc:
            logger.info("%s: no guest browser on DevTools port %d: %s", spec.get("type"), port, exc)
            yield None
            return
        yield browser


def open_page(browser: Browser, url: str) -> Page | None:
    """A new tab of the default context showing ``url``, or None when it cannot load."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.contexts[0] if browser.contexts else browser.new_context()
    page = context.new_page()
    try:
        page.goto(url, timeout=GOTO_TIMEOUT_MS)
    except PlaywrightError as exc:
        logger.info("cannot open %s in the guest browser: %s", url, exc)
        page.close()
        return None
    return page


@getters.register("active_tab_info")
def active_tab_info(ctx: TaskContext, spec: ActiveTabSpec) -> dict[str, str] | None:
    """``{title, url, content}`` of the active tab's URL, reopened in a new tab (as the original:
    the page is loaded again, so it reflects what the URL serves, not unsaved page state)."""
    url = active_url_from_accessTree(ctx, spec)
    if url is None:
        return None
    with guest_browser(ctx, spec) as browser:
        if browser is None:
            return None
        page = open_page(browser, url)
        if page is None:
            return None
        try:
            return {"title": page.title(), "url": page.url, "content": page.content()}
        finally:
            page.close()


@getters.register("html_check")
def html_check(ctx: TaskContext, spec: HtmlCheckSpec) -> str:
    """Run the task's script (it prints a URL), open that URL, and require every selector in
    ``css_paths`` to be visible within ``timeout`` seconds."""
    from playwright.sync_api import expect

    url = vm_script_output(ctx, spec).strip()
    timeout_ms = float(spec.get("timeout", HTML_CHECK_TIMEOUT_S)) * 1000
    if not url:
        return "Link check failed"
    with guest_browser(ctx, spec) as browser:
        if browser is None:
            return "Link check failed"
        page = open_page(browser, url)
        if page is None:
            return "Link check failed"
        try:
            for css in spec.get("css_paths", []):
                expect(page.locator(css).first).to_be_visible(timeout=timeout_ms)
        except AssertionError as exc:
            logger.info("html_check: %s", str(exc).splitlines()[0])
            return "Checking elements failed"
        finally:
            page.close()
    return "Checking elements succeed"


def find_home_page(ctx: TaskContext, spec: BrowserSpec, app: str, url: str, title: str, home: str) -> str:
    """``"Find <app> home page succeed"`` if some tab's URL starts with ``url`` (localhost and
    127.0.0.1 alike), its title contains ``title`` (any case) and the ``home`` link is visible."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    failed = f"Find {app} home page failed"
    target = url.replace("127.0.0.1", "localhost")
    with guest_browser(ctx, spec) as browser:
        if browser is None:
            return failed
        for context in browser.contexts:
            for page in context.pages:
                try:
                    page.wait_for_load_state("networkidle", timeout=SETTLE_TIMEOUT_MS)
                    if not page.url.replace("127.0.0.1", "localhost").startswith(target):
                        continue
                    if title.lower() not in page.title().lower():
                        continue
                    expect(page.locator(home)).to_be_visible()
                    return f"Find {app} home page succeed"
                except (PlaywrightError, AssertionError) as exc:
                    logger.info("%s: tab %s is not the home page: %s", spec.get("type"), page.url, exc)
    return failed


@getters.register("airbyte_localhost_page")
def airbyte_localhost_page(ctx: TaskContext, spec: HomePageSpec) -> str:
    return find_home_page(ctx, spec, "airbyte", spec.get("url", "http://localhost:8000"),
                          spec.get("title", "Airbyte"), 'a[aria-label="Homepage"]')


@getters.register("superset_localhost_page")
def superset_localhost_page(ctx: TaskContext, spec: HomePageSpec) -> str:
    return find_home_page(ctx, spec, "superset", spec.get("url", "http://localhost:8088/superset/welcome"),
                          spec.get("title", "superset"), 'a[href="/superset/welcome/"]')


#: Metabase: the "View the SQL" button of a question and the dialog panel that shows the SQL.
METABASE_URL = "http://localhost:3000"
METABASE_SQL_BUTTON = 'button[aria-label="View the SQL"]'
METABASE_SQL_PANEL = 'div[role="dialog"] > div:nth-child(1) > div:nth-child(2)'
METABASE_BUTTON_TIMEOUT_MS = 60_000
METABASE_TEXT_TRIES, METABASE_TEXT_INTERVAL = 3, 3.0


@getters.register("metabase_question_sql")
def metabase_question_sql(ctx: TaskContext, spec: BrowserSpec) -> str | None:
    """SQL of the Metabase question open in the browser, lower-cased, whitespace collapsed."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    with guest_browser(ctx, spec) as browser:
        if browser is None or not browser.contexts:
            return None
        page = next((pg for pg in browser.contexts[0].pages if pg.url.startswith(METABASE_URL)), None)
        if page is None:
            logger.info("metabase_question_sql: no tab on %s", METABASE_URL)
            return None
        try:
            button = page.locator(METABASE_SQL_BUTTON)
            expect(button).to_be_enabled(timeout=METABASE_BUTTON_TIMEOUT_MS)
            button.click()
            panel = page.locator(METABASE_SQL_PANEL)
            sql = ""
            for _ in range(METABASE_TEXT_TRIES):
                sql = " ".join(panel.inner_text().lower().split())
                if sql:
                    break
                time.sleep(METABASE_TEXT_INTERVAL)
        except (PlaywrightError, AssertionError) as exc:
            logger.info("metabase_question_sql: cannot read the question's SQL: %s", exc)
            return None
    return sql


# -- dbt ------------------------------------------------------------------------------------------


@getters.register("dbt_profiles")
def dbt_profiles(ctx: TaskContext, spec: DbtProfilesSpec) -> str | None:
    """The first ``profiles.yml`` among ``dirs``, fetched into the cache as ``dest``.

    A ``$VAR`` entry is resolved by echoing it in a fresh guest bash, as the original did; a
    variable set only in the agent's terminal is therefore empty and that entry is skipped.
    """
    for folder in spec["dirs"]:
        if folder.startswith("$"):
            folder = ctx.env.execute(["/bin/bash", "-c", f'echo "{folder}"']).stdout.strip()
            if not folder:
                continue
        data = ctx.env.download(str(PurePosixPath(folder) / "profiles.yml"))
        if data is not None:
            target = local_cache_path(ctx, spec["dest"])
            target.write_bytes(data)
            return str(target)
    logger.info("dbt_profiles: no profiles.yml in %s", spec["dirs"])
    return None
