"""The run's configuration: every option of the plugin is a field of :class:`RunConfig`, read once,
whose default is the option's (written once, in the field), and the agent's, the episode's, the
run's and the record's settings all derive from it."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.plugin import options
from pytest_spider2v.plugin.config import DEFAULTS, SETTINGS_DIR_VARIABLE, RunConfig
from pytest_spider2v.plugin.keys import RUN_CONFIG
from pytest_spider2v.run.agent import AgentSettings
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings

#: fields no option of the core gives: what the extensions' flags add, through hooks
FROM_HOOKS = {"provider_flags"}

#: a value for every field that is not its default, and the command line that gives it
GIVEN: dict[str, Any] = {
    "agent": "gpt-4o", "agent_options": {"history": "2", "api_key": "sk-1"}, "provider": "podman",
    "max_steps": 7, "task_timeout": 60.0, "sleep_after_action": 0.0, "results_dir": "out", "run_name": "trial",
    "resume": True, "repeat": 3, "retries": 2, "live": True, "record_video": True, "settings_dir": Path("/settings"),
    "cloud": "emulate", "env_memory": 4 * 1024**3, "env_cpus": 1.5, "env_pids": 256, "env_disk": 2 * 1024**3,
    "isolate_network": True, "provider_flags": {"manager": "tcp://m:2375"},
}
COMMAND_LINE = ["--agent", "gpt-4o", "--agent-option", "history=2", "--agent-option", "api_key=sk-1",
                "--provider", "podman", "--max-steps", "7", "--task-timeout", "60", "--sleep-after-action", "0",
                "--results-dir", "out", "--run-name", "trial", "--resume", "--repeat", "3", "--retries", "2", "--live",
                "--record-video", "--settings-dir", "/settings", "--cloud", "emulate", "--env-memory", "4g",
                "--env-cpus", "1.5", "--env-pids", "256", "--env-disk", "2g", "--isolate-network"]


class Recorder:
    """Stands in for pytest's parser: keeps what :func:`options.add_options` declares, by ``dest``."""

    def __init__(self) -> None:
        self.options: dict[str, dict[str, Any]] = {}

    def getgroup(self, *_: str) -> Recorder:
        return self

    def addoption(self, *names: str, **attrs: Any) -> None:
        self.options[attrs["dest"]] = attrs


def declared(defaults: RunConfig = DEFAULTS, monkeypatch: pytest.MonkeyPatch | None = None) -> dict[str, Any]:
    """Each option :func:`options.add_options` declares, by the field its ``dest`` names, with its
    default (argparse's where it gives none: False for a flag, None otherwise); with ``defaults``,
    as the options are declared when those are the fields' defaults."""
    if monkeypatch is not None:
        monkeypatch.setattr(options, "DEFAULTS", defaults)
    recorder = Recorder()
    options.add_options(recorder)  # type: ignore[arg-type]
    return {dest.removeprefix("spider2v_"): attrs.get("default", False if attrs.get("action") == "store_true" else None)
            for dest, attrs in recorder.options.items()}


def mismatches(defaults: dict[str, Any], config: RunConfig) -> list[str]:
    """The options whose default is not the field's (``--agent-option``'s list of ``KEY=VALUE``
    values is the field's empty dict)."""
    return [name for name, default in defaults.items()
            if (default if name != "agent_options" else dict.fromkeys(default)) != getattr(config, name)]


def test_every_option_is_a_field_and_every_field_but_the_hooks_an_option() -> None:
    assert set(declared()) == {f.name for f in fields(RunConfig)} - FROM_HOOKS


def test_every_option_defaults_to_its_field() -> None:
    assert mismatches(declared(), RunConfig()) == []


def test_the_options_take_their_defaults_from_the_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """No option writes a default of its own: other field defaults are other option defaults
    (flags and the options that default to "not given" have none to write)."""
    written = [name for name, default in declared().items() if default is not None and default is not False
               and default != []]
    assert "max_steps" in written and "provider" in written
    other = replace(DEFAULTS, **{name: GIVEN[name] for name in written})
    assert mismatches(declared(other, monkeypatch), other) == []


def test_a_default_written_in_an_option_is_found() -> None:
    assert mismatches({**declared(), "max_steps": 16}, RunConfig()) == ["max_steps"]


def test_the_episode_keeps_the_papers_limits_by_default() -> None:
    assert RunConfig().episode == EpisodeSettings() and RunConfig().run_settings == RunSettings(EpisodeSettings())


def test_an_empty_command_line_is_the_default_configuration(pytester: pytest.Pytester,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SETTINGS_DIR_VARIABLE, raising=False)
    assert RunConfig.read(pytester.parseconfig()) == RunConfig()


def test_the_settings_derive_from_the_command_line(pytester: pytest.Pytester) -> None:
    run = RunConfig.read(pytester.parseconfig(*COMMAND_LINE, "--temperature", "0.2"))
    assert run == RunConfig(**{**GIVEN, "agent_options": {**GIVEN["agent_options"], "temperature": "0.2"},
                               "provider_flags": {}})
    assert run.agent_settings("gpt-4o", "gw1") == AgentSettings(
        "gpt-4o", options={"history": "2", "api_key": "sk-1", "temperature": "0.2"}, worker="gw1")
    assert run.episode == EpisodeSettings(max_steps=7, time_limit=60.0, sleep_after_action=0.0)
    assert run.run_settings == RunSettings(run.episode, retries=2, live=True, record_video=True)
    environment = {"memory": 4 * 1024**3, "cpus": 1.5, "pids": 256, "disk": 2 * 1024**3, "isolate_network": True}
    # the record's settings keep the shape earlier runs' records have, a secret masked
    assert run.recorded_settings() == {
        "provider": "podman", "max_steps": 7, "task_timeout": 60.0, "sleep_after_action": 0.0, "retries": 2,
        "live": True, "record_video": True, "cloud": "emulate", "environment": environment,
        "agent_options": {"history": "2", "api_key": "***", "temperature": "0.2"}}


def test_the_providers_flags_join_the_limits() -> None:
    run = RunConfig(env_cpus=2.0, provider_flags={"manager": "tcp://m:2375"})
    assert run.provider_options == {"cpus": 2.0, "manager": "tcp://m:2375"}
    assert RunConfig().provider_options == {}


def test_settings_dir_falls_back_to_its_variable(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv(SETTINGS_DIR_VARIABLE, str(tmp_path))
    assert RunConfig.read(pytester.parseconfig()).settings_dir == tmp_path
    assert RunConfig.read(pytester.parseconfig("--settings-dir", "/given")).settings_dir == Path("/given")


def test_the_configuration_is_read_once_and_stashed(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfigure("--agent", "oracle", "--max-steps", "4")
    assert config.stash[RUN_CONFIG].max_steps == 4 and config.stash[RUN_CONFIG].agent == "oracle"
