"""Built-in getters: ``fn(ctx, spec) -> value or local path``, which bring the final state of an
environment to the host so that metrics never touch it.

Importing this package registers them in :data:`pytest_spider2v.registry.getters`: files,
commands and rules (:mod:`.builtin`), the agent's final answer (:mod:`.answer`), Chromium pages
(:mod:`.web`) and one module per application family or cloud service (:mod:`.apps`).
"""

from pytest_spider2v.getters import answer, apps, builtin, web  # noqa: F401  (registration on import)
