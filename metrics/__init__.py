"""Built-in metrics: pure scoring functions ``metric(result, expected, **options) -> float``.

Importing this package registers every metric in :data:`pytest_spider2v.registries.metrics`
(and declares the original benchmark's metrics that are not available here).
"""

from . import (  # noqa: F401  (imported for their registrations)
    apps,
    cells,
    conditional_formats,
    databases,
    declared,
    declared_getters,
    files,
    getters,
    images,
    notebooks,
    sheet_objects,
    table_rules,
    tables,
    text,
    value_rules,
    web_getters,
    workbooks,
    yaml_rules,
)
