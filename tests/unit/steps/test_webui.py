"""The shared ``actions`` parser of the web-UI setup steps: every shape the original configs use."""

from __future__ import annotations

import json

import pytest

from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.webui import Action, parse_actions
from tests.support.shared import require, sample, task_files

KNOWN = ("login", "close_popups")


def test_names_and_dicts_give_the_same_actions() -> None:
    assert parse_actions("s", ["login"], KNOWN) == parse_actions("s", [{"type": "login"}], KNOWN) == [Action("login")]
    assert parse_actions("s", "close_popups", KNOWN) == [Action("close_popups")]
    assert parse_actions("s", {"type": "login", "username": "a"}, KNOWN) == [Action("login", {"username": "a"})]
    assert parse_actions("s", None, KNOWN) == []


def test_order_and_parameters_are_kept() -> None:
    given = [{"type": "close_popups"}, {"type": "login", "username": "u", "password": "p"}]
    assert parse_actions("s", given, KNOWN) == [Action("close_popups"), Action("login", {"username": "u", "password": "p"})]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (["logout"], r"s: unknown action 'logout' \(known: login, close_popups\)"),
        ([{"kind": "login"}], "a name or a dict with 'type'"),
        ([{"type": 3}], "a name or a dict with 'type'"),
        ([None], "a name or a dict with 'type'"),
        (7, "actions must be a list, got int"),
    ],
)
def test_rejects_naming_the_step(bad: object, message: str) -> None:
    with pytest.raises(StepError, match=message):
        parse_actions("s", bad, KNOWN)


def test_unsupported_names_give_their_reason() -> None:
    with pytest.raises(StepError, match="'cloud' is not supported here: needs an account"):
        parse_actions("s", [{"type": "cloud"}], KNOWN, {"cloud": "needs an account"})


def test_declared_parameters_are_checked() -> None:
    params = {"login": ("username", "password")}
    assert parse_actions("s", [{"type": "login", "username": "u"}], KNOWN, params=params)
    assert parse_actions("s", [{"type": "close_popups", "any": 1}], KNOWN, params=params)  # not declared: free
    with pytest.raises(StepError, match="'login' does not take email"):
        parse_actions("s", [{"type": "login", "email": "x"}], KNOWN, params=params)


@pytest.mark.sample
def test_every_web_ui_step_of_the_sample_parses() -> None:
    """The astro and dagster web-UI steps of the real original tasks bind to our parsers."""
    from pytest_spider2v.steps.apps import airflow, dagster

    parsers = {"astro_webui_init": airflow.normalise_actions, "dagster_webui_init": dagster.parse_actions}
    seen = dict.fromkeys(parsers, 0)
    for path in task_files(require(sample())):
        for step in json.loads(path.read_text()).get("config", []):
            if step["type"] in parsers:
                assert parsers[step["type"]](step["parameters"].get("actions")), path
                seen[step["type"]] += 1
    assert all(seen.values()), seen
