"""Snowsight, Snowflake's web console, prepared for a task as the original's steps do (reference
section 2.2), on the tab ``snowflake_login`` opened in the guest's Chromium:

- ``snowflake_write_sqls_in_new_worksheet``: a new SQL worksheet, each of ``sqls`` typed into it
  and run (up to 10 s for its results), then back to the Projects page when ``close``;
- ``snowflake_delete_folder``: the worksheet folder ``folder_name`` deleted, if it exists;
- ``snowflake_delete_filter``: the worksheet filter ``filter_name`` (``:title_keyword`` by
  default) deleted, if it exists.

They drive the console, so no emulator can stand in (they are not waived: they make state the
task reads); implemented, verified only with an account.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.consoles import open_page

if TYPE_CHECKING:
    from playwright.sync_api import Page

SNOWSIGHT = "https://app.snowflake.com"
NO_CONSOLE = "drives Snowsight, the Snowflake web console, which the emulator does not have"
RESULTS_WAIT_MS = 10_000


def _new_worksheet(page: Page) -> None:
    page.locator("div[data-testid=new-button]").click()
    page.locator("div[role=listbox] > div").first.click()


@setup_steps.register("snowflake_write_sqls_in_new_worksheet", account="snowflake", not_emulated=NO_CONSOLE)
def snowflake_write_sqls_in_new_worksheet(ctx: TaskContext, sqls: list[str] | str, close: bool = True,
                                          listening_port: int = 9222) -> None:
    from playwright.sync_api import Error as PlaywrightError

    with open_page(ctx, listening_port, SNOWSIGHT) as page:
        _new_worksheet(page)
        editor = page.locator("div[aria-label=worksheet]")
        for sql in [sqls] if isinstance(sqls, str) else sqls:
            editor.fill(sql)
            page.locator("div[role=button][aria-label=Run]").click()
            try:
                page.get_by_text("Query results").first.wait_for(timeout=RESULTS_WAIT_MS)
            except PlaywrightError:
                pass  # the original waits up to 10 s and goes on
        if close:
            page.locator("a[role=link][aria-label=Projects]").click()


@setup_steps.register("snowflake_delete_folder", account="snowflake", not_emulated=NO_CONSOLE)
def snowflake_delete_folder(ctx: TaskContext, folder_name: str, listening_port: int = 9222) -> None:
    with open_page(ctx, listening_port, SNOWSIGHT) as page:
        folder = page.locator(f"div[role=rowgroup] a[aria-label={folder_name!r}]")
        page.locator("div[role=rowgroup]").first.wait_for()
        if folder.count() == 0:
            return
        folder.first.click()
        page.locator("h1[role=heading]").first.click()
        page.locator("div[data-action-name='Delete Folder']").click()
        page.get_by_role("button", name="Delete").last.click()


@setup_steps.register("snowflake_delete_filter", account="snowflake", not_emulated=NO_CONSOLE)
def snowflake_delete_filter(ctx: TaskContext, filter_name: str = ":title_keyword", listening_port: int = 9222) -> None:
    with open_page(ctx, listening_port, SNOWSIGHT) as page:
        _new_worksheet(page)
        page.locator("div[role=button][aria-label='show or hide filter']").click()
        page.locator("div[role=button]", has_text="Manage Filters").click()
        row = page.locator("div[role=cell]", has_text=filter_name)
        if row.count():
            row.first.hover()
            page.locator("div[role=cell]", has_text="Edit").first.click()
            page.locator("div[role=button]", has_text="Delete").first.click()
            page.locator("div[role=button]", has_text="Delete").last.click()
        page.locator("div[role=button]", has_text="Done").click()
