"""Whether an account task runs: with the user's accounts (settings files present) or against
emulators (console steps waived, names an emulator lacks and accounts none stands in for named)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.run.setup_steps import run_steps
from pytest_spider2v.tasks.availability import NO_SETTINGS, Accounts, declared_reasons, settings_files
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import make_context, make_task, task_document
from pytest_spider2v.testing.fakes import FakeEnvironment

GOOGLE = "evaluation_examples/settings/google/"
LOGIN = {"type": "bigquery_login", "parameters": {"settings_file": GOOGLE + "settings.json",
                                                  "config_file": GOOGLE + "gcp_config.json"}}
DATASETS = {"type": "bigquery_datasets", "config_file": GOOGLE + "gcp_config.json"}


def account_task(config: list[dict[str, Any]], result: dict[str, Any], apps: list[str] | None = None) -> Task:
    document = task_document(id="acc", snapshot="bigquery", related_apps=apps or ["bigquery"],
                             tags=["account", "gui", "data_warehousing"], config=config,
                             evaluator={"func": "is_not_in_list", "result": result,
                                        "expected": {"type": "rule", "rules": {"exclude": ["d"]}}})
    return make_task(document)


def test_without_settings_an_account_task_says_how_to_run_it() -> None:
    assert declared_reasons(account_task([LOGIN], DATASETS), Accounts()) == [NO_SETTINGS]


def test_with_settings_each_missing_settings_file_is_named_with_its_place(tmp_path: Path) -> None:
    task = account_task([LOGIN], DATASETS)
    assert settings_files(task) == [("config[0].settings_file", "google/settings.json"),
                                    ("config[0].config_file", "google/gcp_config.json"),
                                    ("evaluator.result.config_file", "google/gcp_config.json")]
    (tmp_path / "google").mkdir()
    (tmp_path / "google" / "gcp_config.json").write_text("[]")
    assert declared_reasons(task, Accounts(tmp_path)) == [
        f"needs account settings file google/settings.json (config[0].settings_file), not in {tmp_path}"]
    (tmp_path / "google" / "settings.json").write_text("{}")
    assert declared_reasons(task, Accounts(tmp_path)) == []


def test_against_emulators_a_console_step_is_waived_and_no_settings_are_asked_for() -> None:
    assert declared_reasons(account_task([LOGIN], DATASETS), Accounts(Path("unused"), emulate=True)) == []


def test_against_emulators_a_name_the_emulator_lacks_is_named() -> None:
    task = account_task([LOGIN], {"type": "bigquery_connections", "config_file": GOOGLE + "gcp_config.json"})
    assert declared_reasons(task, Accounts(Path("unused"), emulate=True)) == [
        "getter 'bigquery_connections': the emulator has no BigQuery Connection API"]


def test_against_emulators_an_account_no_emulator_stands_in_for_is_named() -> None:
    task = account_task([{"type": "workarena_task_init", "parameters": {"task_name": "x"}}],
                        {"type": "workarena_task_result"}, apps=["servicenow"])
    found = declared_reasons(task, Accounts(Path("unused"), emulate=True))
    assert found == [found[0]]  # WorkArena's names are implemented: only the account is missing
    assert found[0].startswith("needs a servicenow account: no emulator stands in for it (--cloud emulate covers bigquery")


def test_a_console_step_is_waived_against_an_emulator_and_run_otherwise(tmp_path: Path) -> None:
    task = account_task([LOGIN], DATASETS)
    emulated = make_context(FakeEnvironment(), task)
    emulated.emulated = True
    run_steps(emulated, task.spec.config)
    assert emulated.waived == ["bigquery_login: signs in to the BigQuery web console, which the emulator does not have"]
    with_accounts = make_context(FakeEnvironment(), task)
    with pytest.raises(AccountSettingsError, match="pass --settings-dir"):  # it ran: it reads its settings
        run_steps(with_accounts, task.spec.config)
    assert with_accounts.waived == []
