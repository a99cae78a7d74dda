"""Parameter handling of the ``dagster_webui_init`` step (no browser, no Docker)."""

from __future__ import annotations

import pytest

from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps import dagster as dg
from pytest_spider2v.testing.factories import make_context
from pytest_spider2v.testing.fakes import FakeEnvironment


def test_registered_and_available():
    assert "dagster_webui_init" in setup_steps.available()
    assert setup_steps.get("dagster_webui_init") is dg.dagster_webui_init


@pytest.mark.parametrize("actions", [None, []])
def test_no_actions(actions):
    assert dg.parse_actions(actions) == []


def test_names_and_dicts():
    parsed = dg.parse_actions(["close_popups", {"type": "materialize_assets", "timeout": 90}])
    assert parsed == [dg.Action("close_popups"), dg.Action("materialize_assets", {"timeout": 90})]


def test_single_action_shorthand():
    assert dg.parse_actions("close_popups") == [dg.Action("close_popups")]
    assert dg.parse_actions({"type": "close_popups"}) == [dg.Action("close_popups")]


def test_execute_js_needs_code():
    assert dg.parse_actions([{"type": "execute_js", "code": "1"}])[0].params == {"code": "1"}
    with pytest.raises(StepError, match="code"):
        dg.parse_actions([{"type": "execute_js"}])


@pytest.mark.parametrize("bad", [0, -1, "soon", None])
def test_materialize_timeout_must_be_positive(bad):
    with pytest.raises(StepError, match="timeout"):
        dg.parse_actions([{"type": "materialize_assets", "timeout": bad}])


def test_unknown_action_is_named():
    with pytest.raises(StepError, match="unknown action 'login'"):
        dg.parse_actions(["login"])


def test_cloud_action_rejected_with_reason():
    with pytest.raises(StepError, match="Dagster\\+"):
        dg.parse_actions([{"type": "delete_environment_variables"}])


@pytest.mark.parametrize("bad", [42, [{"name": "close_popups"}], [7]])
def test_malformed_actions(bad):
    with pytest.raises(StepError):
        dg.parse_actions(bad)


@pytest.mark.parametrize(
    ("url", "path", "expected"),
    [
        ("http://localhost:3000", None, "http://localhost:3000"),
        ("http://localhost:3000", "/asset-groups", "http://localhost:3000/asset-groups"),
        ("http://localhost:3000/", "assets", "http://localhost:3000/assets"),
    ],
)
def test_page_url(url, path, expected):
    assert dg.page_url(url, path) == expected


def test_tab_matching():
    assert dg.matches("http://localhost:3000/asset-groups", "http://localhost:3000")
    assert dg.matches("http://localhost:3000/", "http://localhost:3000")
    assert not dg.matches("about:blank", "http://localhost:3000")
    assert not dg.matches("http://localhost:30001/", "http://localhost:3000/")


def test_bad_url_rejected_before_connecting():
    env = FakeEnvironment()
    with pytest.raises(StepError, match="url"):
        dg.dagster_webui_init(make_context(env), url="localhost:3000")
    assert env.calls == []  # the browser was not reached
