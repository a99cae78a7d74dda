"""Built-in task formats beyond the Spider2-V layouts. Importing this package registers them in
:data:`pytest_spider2v.registry.task_formats`, as any extension would: InfiAgent-DABench's
questions file (:mod:`.dabench`) and Multimodal-Mind2Web's Parquet files (:mod:`.mind2web`). The
plugin core never imports it; the ``pytest_spider2v`` entry-point group does."""

from pytest_spider2v.formats import dabench, mind2web  # noqa: F401  (registration on import)
