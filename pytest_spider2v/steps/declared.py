"""Setup step types of the original harness that cannot run here (yet), with the reason.

Declaring them lets every published task load and validate; a task that uses one is skipped
with this reason instead of failing as "unknown step". The ``account`` meta names the service
whose credentials would be needed, so account tasks can be selected or reported as a group.
"""

from __future__ import annotations

from pytest_spider2v.registry import setup_steps

#: account (as in ``related_apps``) -> (service, step types needing that account)
NEEDS_ACCOUNT: dict[str, tuple[str, tuple[str, ...]]] = {
    "google_cloud": ("Google Cloud", ("gcp_upload_keyfile", "gcp_webgui", "gcp_config_webgui")),
    "googledrive": ("Google Drive", ("googledrive", "login")),  # googledrive_init, _login: apps/googledrive.py
    "dagster_cloud": ("Dagster Cloud", ("dagster_cloud_webui_login",)),
}

#: step type -> why it cannot run here. The Airflow, Dagster and Superset sign-in steps are
#: implemented in ``pytest_spider2v.steps.apps``; the web-UI steps below are not.
UNAVAILABLE: dict[str, str] = {
    "airbyte_webui_init": "the Airbyte web UI is not part of this project's environments yet",
    "dagster_environment_variables": "the Dagster web UI is not part of this project's environments yet",
    "metabase_webui_init": "the Metabase web UI is not part of this project's environments yet",
    "download": "downloads from the internet, which this project does not have",
    "upload_file": "not implemented yet (no Spider2-V task uses it)",
    "copyfile_from_guest_to_host": "not implemented yet (no Spider2-V task uses it)",
    "change_wallpaper": "not implemented yet (no Spider2-V task uses it)",
    "chrome_open_tabs": "not implemented yet (no Spider2-V task uses it; use google_chrome_browser urls)",
    "chrome_close_tabs": "not implemented yet (no Spider2-V task uses it)",
    "update_browse_history": "not implemented yet (no Spider2-V task uses it)",
    "tidy_desktop": "not implemented in the original harness either",
    "act": "not implemented in the original harness either",
    "replay": "not implemented in the original harness either",
}

setup_steps.declare_unavailable(NEEDS_ACCOUNT, UNAVAILABLE)
