"""Google Sheets' getter (reference section 3), as the original's: ``googlesheet_active_file``
downloads the spreadsheet open in the guest browser's active tab as an .xlsx file into the
cache (``dest``), through the sheet's export address, and gives its local path.

As in the original, the download carries no credentials: it reads a sheet shared by link, as the
tasks' own sheets are. One quirk is fixed: the original put ``https://docs.google.com/
spreadsheets`` in front of the address bar's text and cut the id out of the result; here the id
is read from the address itself, and an address that is not a sheet's gives None (the original
raised). Implemented, verified only with an account: it needs the internet.
"""

from __future__ import annotations

import logging
import re
from typing import TypedDict

from pytest_spider2v.getters.builtin import local_cache_path
from pytest_spider2v.getters.web import active_url_from_accessTree
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext

logger = logging.getLogger(__name__)

SHEET_ID = re.compile(r"docs\.google\.com/spreadsheets/d/([^/?#]+)")
EXPORT = "https://docs.google.com/spreadsheets/d/{}/export?format=xlsx"
DOWNLOAD_TIMEOUT = 120.0


def sheet_id(url: str) -> str | None:
    """The spreadsheet id in a Google Sheets address, or None."""
    match = SHEET_ID.search(url)
    return match.group(1) if match else None


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class ActiveSheetSpec(TypedDict):
    dest: str


@getters.register("googlesheet_active_file", account="googledrive")
def googlesheet_active_file(ctx: TaskContext, spec: ActiveSheetSpec) -> str | None:
    import httpx

    url = active_url_from_accessTree(ctx, {"goto_prefix": "https://"})
    found = sheet_id(url) if url else None
    if found is None:
        logger.info("googlesheet_active_file: the active tab (%s) shows no Google sheet", url)
        return None
    response = httpx.get(EXPORT.format(found), follow_redirects=True, timeout=DOWNLOAD_TIMEOUT)
    response.raise_for_status()
    path = local_cache_path(ctx, str(spec["dest"]))
    path.write_bytes(response.content)
    return str(path)
