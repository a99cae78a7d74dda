"""Built-in agents. Importing this package registers them in
:data:`pytest_spider2v.registry.agents`: the reference solution (:mod:`.oracle`), the do-nothing
baseline (:mod:`.noop`), the model-driven agents (:mod:`.llm`), a person (:mod:`.human`) and a
recorded run played back (:mod:`.replay`). The contract they fulfil is
:class:`pytest_spider2v.run.agent.Agent`, beside the episode that calls them.

The agents' modules are imported when the registry is first read (an agent asked for by name),
not when the package loads: a command that makes no agent (``--collect-only``, ``-k``) does not
pay for the human agent's page server or the model agents' prompting.
"""

from pytest_spider2v.registry import agents

agents.load_on_first_use(__name__, "human", "noop", "oracle", "replay", "llm.agent")
