"""Signing in to the services' web consoles in the guest's Chromium, as the original's login
steps do (reference section 2.2): Playwright attached over CDP fills the vendor's sign-in form.

These steps only prepare the console the agent is told to use; against an emulator there is no
console, so they are registered with ``console`` meta and ``--cloud emulate`` waives them. The
vendors' forms change without notice and cannot be reached from here: this code is implemented,
verified only with an account (docs/accounts.md).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.chrome import wait_for_devtools

if TYPE_CHECKING:
    from playwright.sync_api import Page

logger = logging.getLogger(__name__)

#: The original's default timeouts: 10 s for an action, 100 s for a navigation; a minute for an
#: element of a console page already open (Snowsight's worksheets).
ACTION_TIMEOUT_MS = 10_000
NAVIGATION_TIMEOUT_MS = 100_000
CONSOLE_WAIT_MS = 60_000


class ConsoleError(RuntimeError):
    """A console page the task needs is not open in the guest's browser."""


@contextmanager
def open_page(ctx: TaskContext, listening_port: int, url_prefix: str) -> Iterator[Page]:
    """The guest Chromium's tab whose address starts with ``url_prefix`` (a console a sign-in
    step opened), with the original's timeouts; a :class:`ConsoleError` when there is none."""
    from playwright.sync_api import sync_playwright

    cdp = ctx.env.host_url(listening_port)
    wait_for_devtools(cdp)
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(cdp)
        pages = [page for context in browser.contexts for page in context.pages if page.url.startswith(url_prefix)]
        if not pages:
            raise ConsoleError(f"no tab of the guest's Chromium shows {url_prefix}")
        page = pages[0]
        page.set_default_timeout(CONSOLE_WAIT_MS)
        yield page


@contextmanager
def console_page(ctx: TaskContext, listening_port: int) -> Iterator[Page]:
    """A new tab of the guest's Chromium, in front, with the original's timeouts."""
    from playwright.sync_api import sync_playwright

    cdp = ctx.env.host_url(listening_port)
    wait_for_devtools(cdp)
    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(cdp)
        page = browser.contexts[0].new_page()
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        page.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        page.bring_to_front()
        yield page


def google_sign_in(page: Page, email: str, password: str) -> None:
    """Google's sign-in: email, Next, password, Next; then the "not now" and first-use prompts."""
    from playwright.sync_api import Error as PlaywrightError

    page.fill("input[type=email]", email)
    page.get_by_role("button", name="Next").click()
    page.fill("input[type=password]", password)
    page.get_by_role("button", name="Next").click()
    page.wait_for_load_state()
    for prompt in ("Not now", "Agree and continue"):  # optional: absent once dismissed
        try:
            page.get_by_role("button", name=prompt).click(timeout=3_000)
        except PlaywrightError:
            logger.debug("no %r prompt after Google's sign-in", prompt)


def snowflake_sign_in(page: Page, account: str, user: str, password: str) -> None:
    """Snowsight's sign-in: the account identifier, then user name and password, then the
    first-use prompts ("Skip for now", the feedback pop-over)."""
    from playwright.sync_api import Error as PlaywrightError

    page.fill("input[aria-label='Account identifier']", account)
    page.get_by_role("button", name="Sign in").click()
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Sign in").click()
    page.locator("nav[role=navigation]").wait_for(timeout=60_000)
    for prompt in ("Skip for now", "Close"):
        try:
            page.get_by_role("button", name=prompt).click(timeout=3_000)
        except PlaywrightError:
            logger.debug("no %r prompt after Snowflake's sign-in", prompt)
