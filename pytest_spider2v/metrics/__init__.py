"""Built-in metrics: pure scoring functions ``metric(result, expected, **options) -> float``.

Importing this package registers every metric in :data:`pytest_spider2v.registry.metrics`
(every metric of the original benchmark is implemented). Only the modules
that register are imported here; the workbook helpers (``cells``, ``conditional_formats``,
``sheet_objects``, ``table_rules``, ``value_rules``, ``workbooks``) load when a metric needs them.
"""

from pytest_spider2v.metrics import (  # noqa: F401  (imported for their registrations)
    apps,
    closed_form,
    databases,
    images,
    notebooks,
    tables,
    text,
    yaml_rules,
)
