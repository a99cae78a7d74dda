"""Built-in metrics: pure scoring functions ``metric(result, expected, **options) -> float``.

Importing this package registers every metric in :data:`pytest_spider2v.registry.metrics` from
its index (``registrations.json``, see :mod:`pytest_spider2v.cli.registrations`), without
importing their modules (every metric of the original benchmark is implemented): a metric's
module, and the workbook helpers it uses (``cells``, ``conditional_formats``, ``sheet_objects``,
``table_rules``, ``value_rules``, ``workbooks``), load when a task is scored with it.
"""

from pytest_spider2v.registry import load_index

load_index(__name__, __path__)
