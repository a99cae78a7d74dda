"""Built-in getters: ``fn(ctx, spec) -> value or local path``, which bring the final state of an
environment to the host so that metrics never touch it.

Importing this package registers them in :data:`pytest_spider2v.registry.getters` from its index
(``registrations.json``, see :mod:`pytest_spider2v.cli.registrations`), without importing their
modules: files, commands and rules (:mod:`.builtin`), the agent's final answer (:mod:`.answer`),
Chromium pages (:mod:`.web`) and one module per application family or cloud service
(:mod:`.apps`). A module is imported when a task's getter is run.
"""

from pytest_spider2v.registry import load_index

load_index(__name__, __path__)
