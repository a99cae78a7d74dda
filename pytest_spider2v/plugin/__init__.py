"""The pytest plugin (entry point ``pytest11: spider2v``): every task file a test file, every task
a test item, run by fixtures through one task's lifecycle (:mod:`pytest_spider2v.run`).

Its modules: :mod:`.options` (the command line), :mod:`.config` (the run's configuration, read
from it once: the agent's, the episode's and the record's settings derive from it),
:mod:`.collection` (task files to items, markers), :mod:`.fixtures` (the run of a task item),
:mod:`.hookspecs` (the hooks extensions implement), :mod:`.keys` (what it stashes on pytest's objects), :mod:`.workers`
(controller or xdist worker), :mod:`.ownership` (whose environments these are),
:mod:`.interrupts` (a stopped run leaves nothing behind), :mod:`.heap` (start-up's objects out
of the garbage collector's way) and :mod:`.terminal` (lines shown at once).

Nothing here knows a particular app, agent, metric or provider, nor ``--validate``: they are
extensions, loaded from the ``pytest_spider2v`` entry-point group before the command line is
parsed, and those that implement pytest hooks are registered as plugins beside this one.
"""

from __future__ import annotations

import pytest

from pytest_spider2v import registry
from pytest_spider2v.plugin import collection, fixtures, heap, hookspecs, interrupts, options, ownership
from pytest_spider2v.tasks.formats import registered_formats
from pytest_spider2v.tasks.model import CATEGORIES, DIFFICULTIES, INTERFACES, VARIANTS


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)
    for name, module in registry.load_extensions():
        if registry.is_pytest_plugin(module) and not pluginmanager.is_registered(module):
            pluginmanager.register(module, f"spider2v-{name}")


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(collection, "spider2v-collection")
    config.pluginmanager.register(fixtures, "spider2v-fixtures")
    config.pluginmanager.register(heap, "spider2v-heap")
    for name, text in _fixed_markers():
        config.addinivalue_line("markers", f"{name}: {text}")
    for fmt in registered_formats():
        for name, text in fmt.markers.items():
            collection.ensure_marker(config, name, text)
    ownership.configure(config)
    interrupts.configure(config)
    options.configure(config)


def _fixed_markers() -> list[tuple[str, str]]:
    words = [(c, "task category") for c in CATEGORIES]
    words += [(i, "task interface") for i in INTERFACES]
    words += [(v, "instruction variant") for v in VARIANTS]
    words += [(d, "difficulty: the task's own level, else from action_number (<=5, 6-15, >15)") for d in DIFFICULTIES]
    words.append(("account", "task needs a cloud account"))
    words.append(("errata", "task on the errata list: a known defect, run as published and flagged "
                            "(pytest_spider2v/tasks/errata.yaml)"))
    return words
