"""The testing kit for extenders: what a provider, an agent or any other extension is tested with,
the same the project's own tests use (docs: extending/testing-kit.md).

- :mod:`.provider_conformance`: the provider conformance suite, base classes a provider's test
  class subclasses (``ProviderConformance``, ``ScreenConformance``, ``DesktopConformance``).
- :mod:`.agent_conformance`: the agent conformance suite (``AgentConformance``).
- :mod:`.local` and :mod:`.screen`: stand-in environments and providers whose guest is a folder of
  the host, without and with a screen, for running the whole pipeline without Docker.
- :mod:`.fakes`: an environment, a witness, a provider and an agent that answer only what a test
  scripted, and record what they were asked.
- :mod:`.factories`: task documents and files, tasks, contexts and records.
- :mod:`.waiting`: :func:`~.waiting.wait_until`, how a test waits for something still changing.

Nothing in the package imports this one: it is for tests, and it imports pytest.
"""
