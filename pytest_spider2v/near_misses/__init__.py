"""Near-miss makers: for each metric, almost-right variants of a result it scored 1, aimed at
what the metric claims to check (``--validate``'s near-miss check gives them to the metric and
expects a score below 1 for each).

Importing this package registers every maker in :data:`pytest_spider2v.registry.near_misses`,
under the name of the metric it serves; it is an extension like the metrics themselves, loaded
through the ``pytest_spider2v`` entry points. A metric without a maker is reported as not
covered, never as passed.

The makers are imported when the registry is first read (by ``--validate``'s near-miss check or a
fingerprint), not when the package loads: only a validating run needs them.
"""

from pytest_spider2v.registry import near_misses

near_misses.load_on_first_use(__name__, "apps", "databases", "images", "notebooks", "tables", "text", "workbooks")
