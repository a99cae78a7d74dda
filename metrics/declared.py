"""Metrics of the original benchmark that are known by name but not available here.

Declaring them lets task validation accept the original task files; a task that uses one is
skipped with the reason instead of failing as "unknown metric".
"""

from __future__ import annotations

from pytest_spider2v.registries import metrics

_NOT_YET = "not implemented yet"
_SNOWFLAKE = "needs a Snowflake account (its result comes from, or is checked against, a live Snowflake)"

DECLARED: dict[str, str] = {
    "compare_notebook_outputs": _NOT_YET + " (Jupyter notebook output comparison)",
    "compare_notebook_cells": _NOT_YET + " (Jupyter notebook cell comparison)",
    "compare_ipynb_files": _NOT_YET + " (Jupyter notebook file comparison)",
    "is_jupyter_cell_executed": _NOT_YET + " (Jupyter execution-count check)",
    "are_jupyter_outputs_cleared": _NOT_YET + " (Jupyter execution-count check)",
    "compare_jupyterlab_images": _NOT_YET + " (image histogram comparison)",
    "compare_metabase_images": _NOT_YET + " (image histogram comparison)",
    "compare_images": _NOT_YET + " (image SSIM comparison)",
    "compare_image_list": _NOT_YET + " (pixel-exact image comparison)",
    "check_snowflake_log_message": _SNOWFLAKE,
    "is_snowflake_user_created": _SNOWFLAKE,
}

for _name, _reason in DECLARED.items():
    metrics.declare(_name, _reason)
