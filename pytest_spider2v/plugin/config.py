"""The run's configuration: the plugin's command line, read once when pytest configures, typed.

:class:`RunConfig` holds one field per option of :mod:`.options` (whose defaults are its field
defaults: each default is written once) and what the extensions' flags add to the agent's and the
provider's options. Everything the run is given derives from it: the agent's settings, the
episode's limits, the run's settings and the settings a task's record keeps. It is stashed on the
config (:data:`~pytest_spider2v.plugin.keys.RUN_CONFIG`); readers take it from there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_spider2v.run.settings import EpisodeSettings, RunSettings

if TYPE_CHECKING:  # the agent's and record's types, imported where a run makes them
    from pytest_spider2v.run.agent import AgentSettings
    from pytest_spider2v.run.json_values import JsonObject

#: where ``--settings-dir`` is read from when it is not given
SETTINGS_DIR_VARIABLE = "SPIDER2V_SETTINGS_DIR"
#: the environment limits a provider is given (``--env-memory`` ...), by their option's suffix
ENVIRONMENT_LIMITS = ("memory", "cpus", "pids", "disk")


@dataclass(frozen=True)
class RunConfig:
    """The plugin's options, one field each (option ``--max-steps`` is field ``max_steps``, its
    pytest ``dest`` ``spider2v_max_steps``). The episode's limits and the run's settings keep the
    defaults of the types they go to (the paper's 15 turns is :class:`EpisodeSettings`')."""

    agent: str | None = None
    #: ``--agent-option KEY=VALUE`` values, then what the extensions' flags add (``--temperature``)
    agent_options: Mapping[str, str] = field(default_factory=dict)
    provider: str = "docker"
    max_steps: int = EpisodeSettings.max_steps
    task_timeout: float = EpisodeSettings.time_limit
    sleep_after_action: float = EpisodeSettings.sleep_after_action
    results_dir: str = "results"
    run_name: str | None = None
    resume: bool = False
    repeat: int = 1
    retries: int = RunSettings.retries
    live: bool = RunSettings.live
    record_video: bool = RunSettings.record_video
    settings_dir: Path | None = None
    cloud: str = "accounts"
    env_memory: int | None = None
    env_cpus: float | None = None
    env_pids: int | None = None
    env_disk: int | None = None
    isolate_network: bool = False
    #: what the providers' own flags add to the provider's options (the ``swarm`` provider's manager)
    provider_flags: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, config: pytest.Config) -> RunConfig:
        """The options as given, then the extensions' flags through their hooks."""
        given = {f.name: config.getoption(f"spider2v_{f.name}") for f in fields(cls)
                 if f.name not in ("agent_options", "provider_flags", "settings_dir")}
        options = dict(o.split("=", 1) if "=" in o else (o, "") for o in config.getoption("spider2v_agent_options"))
        for extra in config.hook.pytest_spider2v_agent_options(config=config):
            options.update(extra)
        flags: dict[str, Any] = {}
        for extra in config.hook.pytest_spider2v_provider_options(config=config, provider=given["provider"]):
            flags.update(extra)
        settings_dir = config.getoption("spider2v_settings_dir") or os.environ.get(SETTINGS_DIR_VARIABLE)
        return cls(**given, agent_options=options, provider_flags=flags,
                   settings_dir=Path(settings_dir).expanduser() if settings_dir else None)

    @property
    def provider_options(self) -> dict[str, Any]:
        """The environment limits and isolation given on the command line, and only those (a
        provider that knows none of them, a third-party one, still works for runs that set none),
        then what the provider's own flags add."""
        given = {key: getattr(self, f"env_{key}") for key in ENVIRONMENT_LIMITS}
        options: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
        if self.isolate_network:
            options["isolate_network"] = True
        return {**options, **self.provider_flags}

    def agent_settings(self, name: str, worker: str | None) -> AgentSettings:
        """What the agent ``name`` is made with in the xdist worker ``worker``."""
        from pytest_spider2v.run.agent import AgentSettings

        return AgentSettings(name=name, options=dict(self.agent_options), worker=worker)

    @property
    def episode(self) -> EpisodeSettings:
        return EpisodeSettings(max_steps=self.max_steps, time_limit=self.task_timeout,
                               sleep_after_action=self.sleep_after_action)

    @property
    def run_settings(self) -> RunSettings:
        return RunSettings(episode=self.episode, retries=self.retries, live=self.live, record_video=self.record_video)

    def recorded_settings(self) -> JsonObject:
        """The run's settings as a task's record and the run's manifest keep them, secrets masked
        (their shape is what earlier runs' records hold: ``--resume``, ``replay:`` and
        ``spider2v-report compare`` read them)."""
        from pytest_spider2v.run.records import public_settings

        return public_settings({
            "provider": self.provider,
            "max_steps": self.max_steps,
            "task_timeout": self.task_timeout,
            "sleep_after_action": self.sleep_after_action,
            "retries": self.retries,
            "live": self.live,
            "record_video": self.record_video,
            "cloud": self.cloud,
            "environment": self.provider_options,
            "agent_options": dict(self.agent_options),
        })


#: every option's default, as :func:`~.options.add_options` gives them to pytest
DEFAULTS = RunConfig()
