"""Built-in agents. Importing this package registers them in
:data:`pytest_spider2v.registry.agents`: the reference solution (:mod:`.oracle`), the do-nothing
baseline (:mod:`.noop`), the model-driven agents (:mod:`.llm`), a person (:mod:`.human`) and a
recorded run played back (:mod:`.replay`). The contract they fulfil is
:class:`pytest_spider2v.run.agent.Agent`, beside the episode that calls them.
"""

from pytest_spider2v.agents import human, noop, oracle, replay  # noqa: F401  (registration on import)
from pytest_spider2v.agents.llm import agent  # noqa: F401  (registration on import)
