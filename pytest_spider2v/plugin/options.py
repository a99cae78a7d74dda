"""The plugin's command-line options, read once into the run's :class:`~.config.RunConfig`.

``--validate`` and its companions are added by :mod:`pytest_spider2v.validate.plugin`, the
model-driven agents' flags by :mod:`pytest_spider2v.agents.llm.options`: each extension adds its
own.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import pytest

from pytest_spider2v.environments.limits import parse_memory
from pytest_spider2v.plugin.config import DEFAULTS, SETTINGS_DIR_VARIABLE, RunConfig
from pytest_spider2v.plugin.keys import EMULATOR_SETTINGS, RUN_CONFIG, RUN_DIR
from pytest_spider2v.registry import emulators
from pytest_spider2v.run.slugs import slug
from pytest_spider2v.tasks.availability import Accounts


def add_options(parser: pytest.Parser) -> None:
    """The plugin's options, each the field of :class:`RunConfig` its ``dest`` names, with that
    field's default."""
    group = parser.getgroup("spider2v", "Spider2-V benchmark")
    group.addoption("--agent", dest="spider2v_agent", metavar="NAME",
                    help="agent that runs the tasks (e.g. oracle, noop); required to run tasks")
    group.addoption("--agent-option", dest="spider2v_agent_options", action="append", default=[],
                    metavar="KEY=VALUE", help="option passed to the agent (repeatable)")
    group.addoption("--provider", dest="spider2v_provider", default=DEFAULTS.provider, metavar="NAME",
                    help=f"environment provider (default: {DEFAULTS.provider})")
    group.addoption("--max-steps", dest="spider2v_max_steps", type=int, default=DEFAULTS.max_steps, metavar="N",
                    help=f"agent turns per task (default: {DEFAULTS.max_steps}, as the paper)")
    group.addoption("--task-timeout", dest="spider2v_task_timeout", type=float, default=DEFAULTS.task_timeout,
                    metavar="S", help=f"seconds an episode may take (default: {DEFAULTS.task_timeout:g}, as the paper)")
    group.addoption("--sleep-after-action", dest="spider2v_sleep_after_action", type=float,
                    default=DEFAULTS.sleep_after_action, metavar="S",
                    help=f"pause after each action before observing (default: {DEFAULTS.sleep_after_action:g})")
    group.addoption("--results-dir", dest="spider2v_results_dir", default=DEFAULTS.results_dir, metavar="DIR",
                    help=f"where per-task records are written (default: ./{DEFAULTS.results_dir})")
    group.addoption("--run-name", dest="spider2v_run_name", metavar="NAME",
                    help="name of this run's folder under --results-dir (default: the agent's name)")
    group.addoption("--resume", dest="spider2v_resume", action="store_true",
                    help="reuse finished records of this run instead of running those tasks again")
    group.addoption("--repeat", dest="spider2v_repeat", type=_repeat_count, default=DEFAULTS.repeat, metavar="K",
                    help="run every selected task K times, each on a fresh environment with a record of its own; "
                         "the summary adds pass@K, pass^K and the tasks whose repeats disagree "
                         f"(default: {DEFAULTS.repeat})")
    group.addoption("--retries", dest="spider2v_retries", type=int, default=DEFAULTS.retries, metavar="N",
                    help="start a task over on a fresh environment, up to N times, when its environment or "
                         "setup fails (never after a score); every attempt stays in the record "
                         f"(default: {DEFAULTS.retries})")
    group.addoption("--live", dest="spider2v_live", action="store_true",
                    help="serve every task's desktop to a browser while it runs (view-only); the URL is printed "
                         "when the task starts and kept in its record")
    group.addoption("--record-video", dest="spider2v_record_video", action="store_true",
                    help="record each episode, from the first observation to the end of the evaluation, as "
                         "episode.mp4 in the task's record (shown in the HTML report)")
    group.addoption("--settings-dir", dest="spider2v_settings_dir", metavar="DIR",
                    help=f"folder of account settings for cloud tasks (env: {SETTINGS_DIR_VARIABLE})")
    group.addoption("--cloud", dest="spider2v_cloud", choices=("accounts", "emulate"), default=DEFAULTS.cloud,
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


def configure(config: pytest.Config) -> None:
    """Read the command line once (:class:`RunConfig`), after ``--validate`` named its run, and
    stash it with the run's folder and, under ``--cloud emulate``, the emulators' settings."""
    run = config.stash[RUN_CONFIG] = RunConfig.read(config)
    config.stash[RUN_DIR] = config.invocation_params.dir / run.results_dir / slug(run.run_name or run.agent or "run")
    if run.cloud == "emulate":
        config.stash[EMULATOR_SETTINGS] = _emulated_settings(config)


def accounts(config: pytest.Config) -> Accounts:
    """Where this run's account tasks find their services (``--cloud``)."""
    if config.stash[RUN_CONFIG].cloud == "emulate":
        return Accounts(config.stash[EMULATOR_SETTINGS], emulate=True)
    return Accounts(config.stash[RUN_CONFIG].settings_dir)


def _emulated_settings(config: pytest.Config) -> Path:
    """The registered emulators' settings (in the original's layout, pointing at the emulators),
    written to a folder of this process, removed at its end."""
    folder = Path(tempfile.mkdtemp(prefix="spider2v-emulated-settings-"))
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    for name in emulators.available():
        emulators.get(name).write_settings(folder)
    return folder
