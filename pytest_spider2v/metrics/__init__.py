"""Built-in metrics: pure scoring functions ``metric(result, expected, **options) -> float``.

Importing this package registers every metric in :data:`pytest_spider2v.registry.metrics`
(and declares the original benchmark's metrics that are not available here).
"""

from . import (  # noqa: F401  (imported for their registrations)
    apps,
    cells,
    conditional_formats,
    databases,
    declared,
    files,
    images,
    notebooks,
    sheet_objects,
    table_rules,
    tables,
    text,
    value_rules,
    workbooks,
    yaml_rules,
)
