"""Getter types of the original harness that cannot run here (yet), with the reason.

Declared names let every published task validate; a task whose evaluation needs one is
skipped with the reason. ``account`` names the service whose credentials would be needed.
"""

from __future__ import annotations

from pytest_spider2v.registries import getters

#: service key (as in ``related_apps``) -> (display name, getter types needing that account)
CLOUD_GETTERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "servicenow": ("ServiceNow", ("workarena_task_result",)),
    "bigquery": (
        "BigQuery",
        ("bigquery_table_to_csv", "bigquery_sql_result_to_csv", "bigquery_datasets", "bigquery_connections"),
    ),
    "snowflake": (
        "Snowflake",
        (
            "snowflake_table_to_csv",
            "snowflake_database_schema_to_csv",
            "snowflake_worksheet_sql",
            "snowflake_execution_result",
            "snowflake_worksheet_names_in_folder",
            "snowflake_function_result",
            "snowflake_log_message",
            "snowflake_user_info",
            "snowflake_worksheet_sql_result",
        ),
    ),
    "dbt_cloud": ("dbt Cloud", ("dbt_job_info", "dbt_project_info", "dbt_environment_info")),
    "googledrive": ("Google Drive", ("googlesheet_active_file",)),
}

#: getters that need only the local desktop, but are not written yet
NOT_YET: tuple[str, ...] = (
    "active_url_from_accessTree",
    "active_tab_info",
    "html_check",
    "validate_correct_url",
    "dbt_profiles",
    "metabase_question_sql",
    "airbyte_localhost_page",
    "superset_localhost_page",
)


def declare_all() -> None:
    for account, (service, names) in CLOUD_GETTERS.items():
        for name in names:
            getters.declare(name, f"needs a {service} account", account=account)
    for name in NOT_YET:
        getters.declare(name, "not implemented yet")


declare_all()
