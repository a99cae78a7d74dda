"""The plugin's command-line options, and the settings a run reads from them.

``--validate`` and its companions are added by :mod:`pytest_spider2v.validate.plugin`, the
model-driven agents' flags by :mod:`pytest_spider2v.agents.llm.options`: each extension adds its
own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.environments.limits import parse_memory
from pytest_spider2v.plugin.keys import EMULATOR_SETTINGS
from pytest_spider2v.registry import emulators
from pytest_spider2v.run.records import public_settings, slug
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings
from pytest_spider2v.tasks.availability import Accounts


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("spider2v", "Spider2-V benchmark")
    group.addoption("--agent", dest="spider2v_agent", metavar="NAME",
                    help="agent that runs the tasks (e.g. oracle, noop); required to run tasks")
    group.addoption("--agent-option", dest="spider2v_agent_options", action="append", default=[],
                    metavar="KEY=VALUE", help="option passed to the agent (repeatable)")
    group.addoption("--provider", dest="spider2v_provider", default="docker", metavar="NAME",
                    help="environment provider (default: docker)")
    group.addoption("--max-steps", dest="spider2v_max_steps", type=int, default=15, metavar="N",
                    help="agent turns per task (default: 15, as the paper)")
    group.addoption("--task-timeout", dest="spider2v_task_timeout", type=float, default=1800.0, metavar="S",
                    help="seconds an episode may take (default: 1800, as the paper)")
    group.addoption("--sleep-after-action", dest="spider2v_sleep_after_action", type=float, default=0.5,
                    metavar="S", help="pause after each action before observing (default: 0.5)")
    group.addoption("--results-dir", dest="spider2v_results_dir", default="results", metavar="DIR",
                    help="where per-task records are written (default: ./results)")
    group.addoption("--run-name", dest="spider2v_run_name", metavar="NAME",
                    help="name of this run's folder under --results-dir (default: the agent's name)")
    group.addoption("--resume", dest="spider2v_resume", action="store_true",
                    help="reuse finished records of this run instead of running those tasks again")
    group.addoption("--repeat", dest="spider2v_repeat", type=_repeat_count, default=1, metavar="K",
                    help="run every selected task K times, each on a fresh environment with a record of its own; "
                         "the summary adds pass@K, pass^K and the tasks whose repeats disagree (default: 1)")
    group.addoption("--retries", dest="spider2v_retries", type=int, default=0, metavar="N",
                    help="start a task over on a fresh environment, up to N times, when its environment or "
                         "setup fails (never after a score); every attempt stays in the record (default: 0)")
    group.addoption("--live", dest="spider2v_live", action="store_true",
                    help="serve every task's desktop to a browser while it runs (view-only); the URL is printed "
                         "when the task starts and kept in its record")
    group.addoption("--record-video", dest="spider2v_record_video", action="store_true",
                    help="record each episode, from the first observation to the end of the evaluation, as "
                         "episode.mp4 in the task's record (shown in the HTML report)")
    group.addoption("--settings-dir", dest="spider2v_settings_dir", metavar="DIR",
                    default=os.environ.get("SPIDER2V_SETTINGS_DIR"),
                    help="folder of account settings for cloud tasks (env: SPIDER2V_SETTINGS_DIR)")
    group.addoption("--cloud", dest="spider2v_cloud", choices=("accounts", "emulate"), default="accounts",
                    help="where account tasks find their cloud services: 'accounts' (default), the user's own, "
                         "from --settings-dir; 'emulate', emulators inside each task's environment (BigQuery, "
                         "Snowflake): proves the harness offline, does not score a model")
    group.addoption("--env-memory", dest="spider2v_env_memory", type=parse_memory, metavar="SIZE",
                    help="memory limit of every environment, e.g. 4g or 512m; 0 for none "
                         "(default: per snapshot, in snapshots.yaml)")
    group.addoption("--env-cpus", dest="spider2v_env_cpus", type=float, metavar="N",
                    help="CPUs each environment may use, e.g. 1.5; 0 for no limit (default: per snapshot)")
    group.addoption("--env-pids", dest="spider2v_env_pids", type=int, metavar="N",
                    help="processes each environment may run; 0 for no limit (default: per snapshot)")
    group.addoption("--env-disk", dest="spider2v_env_disk", type=parse_memory, metavar="SIZE",
                    help="what each environment may write over its image, e.g. 4g; 0 for no limit "
                         "(default: per snapshot, in snapshots.yaml)")
    group.addoption("--isolate-network", dest="spider2v_isolate_network", action="store_true",
                    help="cut environments off from every network; only the harness reaches their guest ports")


def _repeat_count(value: str) -> int:
    """``--repeat``'s count: a whole number of at least 1."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"a count of at least 1, not {value!r}")
    return int(value)


def run_folder(config: pytest.Config) -> Path:
    """``<results dir>/<run>``: the run's name is ``--run-name``, else the agent's name, as one
    folder whatever the name holds (``openai:qwen``, ``replay:results/gpt-4o``)."""
    run = config.getoption("spider2v_run_name") or config.getoption("spider2v_agent") or "run"
    return config.invocation_params.dir / config.getoption("spider2v_results_dir") / slug(run)


def settings_dir(config: pytest.Config) -> Path | None:
    value = config.getoption("spider2v_settings_dir")
    return Path(value).expanduser() if value else None


def accounts(config: pytest.Config) -> Accounts:
    """Where this run's account tasks find their services (``--cloud``)."""
    if config.getoption("spider2v_cloud") == "emulate":
        return Accounts(config.stash[EMULATOR_SETTINGS], emulate=True)
    return Accounts(settings_dir(config))


def configure_cloud(config: pytest.Config) -> None:
    """With ``--cloud emulate``, write the registered emulators' settings (in the original's
    layout, pointing at the emulators) to a folder of this process, removed at its end."""
    if config.getoption("spider2v_cloud") != "emulate":
        return
    folder = Path(tempfile.mkdtemp(prefix="spider2v-emulated-settings-"))
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    for name in emulators.available():
        emulators.get(name).write_settings(folder)
    config.stash[EMULATOR_SETTINGS] = folder


def agent_options(config: pytest.Config) -> dict[str, str]:
    """``--agent-option KEY=VALUE`` values, then what extensions add through the hook."""
    options = dict(o.split("=", 1) if "=" in o else (o, "") for o in config.getoption("spider2v_agent_options"))
    for extra in config.hook.pytest_spider2v_agent_options(config=config):
        options.update(extra)
    return options


def provider_options(config: pytest.Config) -> dict[str, Any]:
    """The environment limits and isolation given on the command line, and only those (a provider
    that knows none of them, a third-party one, still works for runs that set none), then what
    the provider's own flags add through the hook (the ``swarm`` provider's manager)."""
    given = {key: config.getoption(f"spider2v_env_{key}") for key in ("memory", "cpus", "pids", "disk")}
    options: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    if config.getoption("spider2v_isolate_network"):
        options["isolate_network"] = True
    for extra in config.hook.pytest_spider2v_provider_options(config=config):
        options.update(extra)
    return options


def run_settings(config: pytest.Config) -> RunSettings:
    return RunSettings(
        episode=EpisodeSettings(
            max_steps=config.getoption("spider2v_max_steps"),
            time_limit=config.getoption("spider2v_task_timeout"),
            sleep_after_action=config.getoption("spider2v_sleep_after_action"),
        ),
        retries=config.getoption("spider2v_retries"),
        live=config.getoption("spider2v_live"),
        record_video=config.getoption("spider2v_record_video"),
    )


def recorded_settings(config: pytest.Config) -> dict[str, Any]:
    """The run's settings as a task's record keeps them, secrets masked."""
    return public_settings({
        "provider": config.getoption("spider2v_provider"),
        "max_steps": config.getoption("spider2v_max_steps"),
        "task_timeout": config.getoption("spider2v_task_timeout"),
        "sleep_after_action": config.getoption("spider2v_sleep_after_action"),
        "retries": config.getoption("spider2v_retries"),
        "live": config.getoption("spider2v_live"),
        "record_video": config.getoption("spider2v_record_video"),
        "cloud": config.getoption("spider2v_cloud"),
        "environment": provider_options(config),
        "agent_options": agent_options(config),
    })
