"""Snowsight getters (reference section 3), read from the console tab in the guest's Chromium:
``snowflake_worksheet_sql`` (the open worksheet's text), ``snowflake_worksheet_names_in_folder``
(the worksheets of a folder) and ``snowflake_worksheet_sql_result`` (the last statement of the
worksheet ``worksheet``, run again through the connector in ``database.schema``, which the
worksheet must have selected, as a CSV with header). Implemented, verified only with an account.
"""

from __future__ import annotations

from contextlib import closing
from typing import TypedDict

from pytest_spider2v.clouds.snowflake import connect, snowflake_account
from pytest_spider2v.getters.apps.snowflake import write_csv
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.steps.apps.snowsight import NO_CONSOLE, SNOWSIGHT
from pytest_spider2v.steps.consoles import open_page

# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class WorksheetSpec(TypedDict, total=False):
    listening_port: int


class WorksheetFolderSpec(WorksheetSpec, total=False):
    folder_name: str


class WorksheetResultSpec(WorksheetSpec, total=False):
    worksheet: str
    database: str
    schema: str
    settings_file: str
    dest: str


@getters.register("snowflake_worksheet_sql", account="snowflake", not_emulated=NO_CONSOLE)
def snowflake_worksheet_sql(ctx: TaskContext, spec: WorksheetSpec) -> str:
    with open_page(ctx, spec.get("listening_port", 9222), SNOWSIGHT) as page:
        return page.locator("div[aria-label=worksheet]").inner_text().strip()


@getters.register("snowflake_worksheet_names_in_folder", account="snowflake", not_emulated=NO_CONSOLE)
def snowflake_worksheet_names_in_folder(ctx: TaskContext, spec: WorksheetFolderSpec) -> list[str]:
    with open_page(ctx, spec.get("listening_port", 9222), SNOWSIGHT) as page:
        folder = page.locator(f"div[role=rowgroup] a[aria-label={spec['folder_name']!r}]")
        page.locator("div[role=rowgroup]").first.wait_for()
        if folder.count() == 0:
            return []
        folder.first.click()
        page.locator("div[role=rowgroup] a[aria-label]").first.wait_for()
        return [str(link.get_attribute("aria-label")) for link in page.locator("div[role=rowgroup] a[aria-label]").all()]


@getters.register("snowflake_worksheet_sql_result", account="snowflake", not_emulated=NO_CONSOLE)
def snowflake_worksheet_sql_result(ctx: TaskContext, spec: WorksheetResultSpec) -> str | None:
    from snowflake.connector.errors import ProgrammingError

    with open_page(ctx, spec.get("listening_port", 9222), SNOWSIGHT) as page:
        if page.locator(f"div[data-action-name=worksheet-tab][aria-label={spec['worksheet']!r}]").count() == 0:
            return None
        selected = page.locator("div[role=button][data-testid=databaseAndSchemaSelector]").inner_text()
        if selected != f"{spec['database']}.{spec['schema']}":
            return None
        sql = page.locator("div[aria-label=worksheet]").inner_text().replace("\n", " ").split(";")[-1]
    account = snowflake_account(ctx, spec.get("settings_file"), "snowflake_worksheet_sql_result")
    with closing(connect(account, database=spec["database"], schema=spec["schema"])) as connection:
        cursor = connection.cursor()
        try:
            cursor.execute(sql)
        except ProgrammingError:
            return None
        return write_csv(ctx, spec["dest"], cursor.fetchall(), [d.name for d in cursor.description])
