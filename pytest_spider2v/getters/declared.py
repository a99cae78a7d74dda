"""Getter types of the original harness that need a cloud account, with the reason.

Declared names let every published task validate; a task whose evaluation needs one is
skipped with the reason. ``account`` names the service whose credentials would be needed.
"""

from __future__ import annotations

from pytest_spider2v.registry import getters

#: account (as in ``related_apps``) -> (service, getter types needing that account)
NEEDS_ACCOUNT: dict[str, tuple[str, tuple[str, ...]]] = {
    "servicenow": ("ServiceNow", ("workarena_task_result",)),
    "googledrive": ("Google Drive", ("googlesheet_active_file",)),
}

getters.declare_unavailable(NEEDS_ACCOUNT)
