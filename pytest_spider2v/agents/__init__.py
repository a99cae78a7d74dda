"""Built-in agents. Importing this package registers them (it is also a pytest plugin)."""

from . import human, llm, noop, oracle, replay  # noqa: F401  (registration on import)
