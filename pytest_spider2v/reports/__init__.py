"""Reports built from per-task records: pytest-html pages, the terminal summary and ``summary.json``.

Reports only read records (the typed :class:`~pytest_spider2v.run.results.TaskResult`); they never
touch environments. The pytest hooks live in :mod:`.plugin`; the rendering and aggregation are plain
functions over typed data in :mod:`.html`, :mod:`.task_summary` (one task as the summary counts it),
:mod:`.summary` and :mod:`.closed_form`, so they can be tested without pytest.
"""
