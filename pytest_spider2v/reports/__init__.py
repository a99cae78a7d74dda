"""Reports built from per-task records: pytest-html pages, the terminal summary and ``summary.json``.

Reports only read records (``pytest_spider2v.run.records``); they never touch environments. The pytest
hooks live in :mod:`.plugin`; the rendering and aggregation are plain functions in
:mod:`.html` and :mod:`.summary` so they can be tested without pytest.
"""
