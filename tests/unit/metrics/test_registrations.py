"""``import metrics`` registers every metric of reference §3.4, each implemented."""

from __future__ import annotations

from pytest_spider2v.registry import check_parameters
from pytest_spider2v.registry import metrics as registry

IMPLEMENTED = {
    "check_include_exclude", "compare_csv", "compare_table", "check_local_database", "compare_json_file",
    "exact_match", "check_yaml_file", "compare_text_file", "is_expected_url_pattern_match",
    "check_file_existence", "is_not_in_list", "diff_text_file", "literal_match", "compare_sql",
    "compare_notebook_outputs", "compare_metabase_images", "compare_images", "compare_notebook_cells",
    "compare_jupyterlab_images", "is_jupyter_cell_executed", "are_jupyter_outputs_cleared",
    "compare_ipynb_files", "compare_image_list", "check_snowflake_log_message", "is_snowflake_user_created",
}


def test_all_reference_metrics_are_implemented() -> None:
    assert IMPLEMENTED <= set(registry.available())


def test_sample_option_shapes_bind() -> None:
    """Options as the sample tasks pass them bind to the signatures (task validation relies on it)."""
    assert check_parameters(registry.get("compare_table"), 2, {"rules": []}) is None
    assert check_parameters(registry.get("check_local_database"), 2, {
        "db_type": "duckdb", "check_type": ["table-schema-content"], "table_targets": ["t"], "schema_name": "s"}) is None
    assert check_parameters(registry.get("check_include_exclude"), 2, {}) is None
    assert check_parameters(registry.get("check_yaml_file"), 2, {}) is None
    assert check_parameters(registry.get("compare_csv"), 2, {"strict": False, "ignore_case": True}) is None
    assert check_parameters(registry.get("check_file_existence"), 1, {}) is None
    assert check_parameters(registry.get("compare_table"), 2, {"rulez": []}) is not None
