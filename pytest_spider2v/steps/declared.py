"""Setup step types of the original harness that cannot run here (yet), with the reason.

Declaring them lets every published task load and validate; a task that uses one is skipped
with this reason instead of failing as "unknown step". The ``account`` meta names the service
whose credentials would be needed, so account tasks can be selected or reported as a group.
"""

from __future__ import annotations

from pytest_spider2v.registry import setup_steps

#: service key (as in ``related_apps``) -> (display name, step types needing that account)
CLOUD_STEPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "servicenow": ("ServiceNow", ("workarena_task_init", "workarena_unique_fields")),
    "snowflake": (
        "Snowflake",
        (
            "snowflake_init",
            "snowflake_login",
            "snowflake_write_sqls_in_new_worksheet",
            "snowflake_delete_folder",
            "snowflake_delete_filter",
        ),
    ),
    "bigquery": ("BigQuery", ("bigquery_init", "bigquery_login")),
    "google_cloud": ("Google Cloud", ("gcp_upload_keyfile", "gcp_webgui", "gcp_config_webgui")),
    "googledrive": ("Google Drive", ("googledrive_init", "googledrive_login", "googledrive", "login")),
    "dbt_cloud": ("dbt Cloud", ("dbt_cloud_init", "dbt_cloud_webui_login")),
    "hasura_cloud": ("Hasura Cloud", ("hasura_login",)),
    "dagster_cloud": ("Dagster Cloud", ("dagster_cloud_webui_login",)),
}

#: step type -> app whose web UI (served inside the guest) the step drives. The Airflow,
#: Dagster and Superset sign-in steps are implemented in ``pytest_spider2v.steps.apps``; these are not.
WEB_UI_STEPS: dict[str, str] = {
    "airbyte_webui_init": "Airbyte",
    "astro_refresh_page": "Airflow (Astro)",
    "dagster_environment_variables": "Dagster",
    "metabase_webui_init": "Metabase",
}

#: built-in steps of the original that no Spider2-V task uses
OTHER_STEPS: dict[str, str] = {
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


def declare_all() -> None:
    for account, (service, names) in CLOUD_STEPS.items():
        for name in names:
            setup_steps.declare(name, f"needs a {service} account", account=account)
    for name, app in WEB_UI_STEPS.items():
        setup_steps.declare(name, f"the {app} web UI is not part of this project's environments yet")
    for name, reason in OTHER_STEPS.items():
        setup_steps.declare(name, reason)


declare_all()
