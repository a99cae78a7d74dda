"""ServiceNow through WorkArena: the instance's settings (the original's ``SNOW_*`` file), which
tab the evaluation validates and what each outcome scores, with WorkArena's task session
scripted here (the real session runs in the ``clouds`` image: tests/e2e/test_clouds_servicenow.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.clouds import servicenow
from pytest_spider2v.clouds.servicenow import WorkArenaError, instance_settings, same_page
from pytest_spider2v.clouds.settings import AccountSettingsError
from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.environments.snapshots import load_snapshots
from pytest_spider2v.getters.apps import servicenow as getter_module
from pytest_spider2v.getters.apps.servicenow import workarena_task_result
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps import servicenow as step_module
from pytest_spider2v.steps.apps.servicenow import workarena_task_init, workarena_unique_fields
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.fakes import FakeEnvironment

SETTINGS = "evaluation_examples/settings/servicenow/settings.json"
INSTANCE = {"SNOW_INSTANCE_URL": "https://dev1.service-now.com/", "SNOW_INSTANCE_UNAME": "admin",
            "SNOW_INSTANCE_PWD": "s3cret"}
ADDRESS_BAR = ('<desktop-frame><application name="Chromium"><entry name="Address and search bar">'
               "{}</entry></application></desktop-frame>")


def context(tmp_path: Path, document: Any = INSTANCE, tree: str | None = None) -> TaskContext:
    (tmp_path / "servicenow").mkdir(parents=True, exist_ok=True)
    (tmp_path / "servicenow" / "settings.json").write_text(json.dumps(document))
    return TaskContext(FakeEnvironment(tree=tree), make_task(), tmp_path / "cache", tmp_path)


class Session:
    """WorkArena's session, scripted: each route's reply (or exception), and the calls made."""

    def __init__(self, replies: dict[str, Any]) -> None:
        self.replies = replies
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def call(self, route: str, body: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.calls.append((route, body))
        reply = self.replies[route]
        if isinstance(reply, Exception):
            raise reply
        return dict(reply)


def scripted(monkeypatch: pytest.MonkeyPatch, **replies: Any) -> Session:
    script = Session({f"/{route}": reply for route, reply in replies.items()})
    for module in (step_module, getter_module):
        monkeypatch.setattr(module, "session", lambda ctx: script)
    return script


def test_settings_give_the_snow_variables_of_the_named_file(tmp_path: Path) -> None:
    found = instance_settings(context(tmp_path, {**INSTANCE, "note": "x"}), {"settings_file": SETTINGS}, "step")
    assert found == INSTANCE


def test_settings_name_the_missing_field_and_the_file(tmp_path: Path) -> None:
    ctx = context(tmp_path, {key: value for key, value in INSTANCE.items() if key != "SNOW_INSTANCE_PWD"})
    with pytest.raises(AccountSettingsError, match=r"servicenow/settings.json has no 'SNOW_INSTANCE_PWD'"):
        instance_settings(ctx, {}, "workarena_task_init")


def test_settings_must_be_an_object(tmp_path: Path) -> None:
    with pytest.raises(AccountSettingsError, match="is not a JSON object"):
        instance_settings(context(tmp_path, [INSTANCE]), {}, "workarena_task_init")


def test_same_page_follows_the_original_compare_urls() -> None:
    assert same_page("https://www.Dev1.service-now.com/", "https://dev1.service-now.com")
    assert same_page("HTTPS://dev1.service-now.com/now/nav", "https://dev1.service-now.com/now/nav")
    assert not same_page("https://dev1.service-now.com/now/nav", "https://dev1.service-now.com/now/nav/")
    assert not same_page("https://dev1.service-now.com/a?x=1", "https://dev1.service-now.com/a?x=2")


def test_task_init_sends_the_task_the_settings_and_the_guest_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = scripted(monkeypatch, setup={"goal": "Order 8 iPad mini", "task": "OrderIpadMiniTask"})
    workarena_task_init(context(tmp_path), task_name="OrderIpadMiniTask", settings_file=SETTINGS)
    assert script.calls == [("/setup", {"task_name": "OrderIpadMiniTask", "task_kwargs": {},
                                        "cdp_url": "http://127.0.0.1:9222", "settings": INSTANCE})]


def test_unique_fields_append_label_value_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted(monkeypatch, template_record={"serial_number": "SN-4471"})
    ctx = context(tmp_path)
    ctx.env.replies.append(ExecResult(0, "", ""))
    workarena_unique_fields(ctx, field_mappings={"serial_number": "Serial number"})
    (command,) = ctx.env.commands
    assert command[:2] == ["bash", "-c"] and "'Serial number: SN-4471\n'" in command[2]
    assert command[2].endswith(">> /home/user/Desktop/unique_fields.txt")


def test_unique_fields_none_is_a_no_op_and_a_list_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = scripted(monkeypatch)
    workarena_unique_fields(context(tmp_path), field_mappings=[])
    assert script.calls == []
    with pytest.raises(StepError, match="field_mappings: expected field -> label"):
        workarena_unique_fields(context(tmp_path), field_mappings=["serial_number"])


def test_result_validates_the_tab_in_the_address_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = scripted(monkeypatch, pages={"urls": ["about:blank", "https://dev1.service-now.com/now/cart"]},
                      validate={"reward": 1.0, "info": {}})
    ctx = context(tmp_path, tree=ADDRESS_BAR.format("dev1.service-now.com/now/cart"))
    assert workarena_task_result(ctx, {"type": "workarena_task_result"}) == "succeed"
    assert script.calls[-1] == ("/validate", {"page": 1, "answer": None, "close": True})


def test_result_gives_the_answer_file_and_fails_on_no_reward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = scripted(monkeypatch, pages={"urls": ["https://dev1.service-now.com/kb"]}, validate={"reward": 0.0})
    ctx = context(tmp_path, tree=ADDRESS_BAR.format("dev1.service-now.com/kb"))
    ctx.env.files["/home/user/answer.txt"] = b"42 days"
    spec = {"type": "workarena_task_result", "path": "/home/user/answer.txt", "dest": "answer.txt", "close": False}
    assert workarena_task_result(ctx, spec) == "failed"
    assert script.calls[-1] == ("/validate", {"page": 0, "answer": "42 days", "close": False})


def test_result_without_the_active_tab_fails_and_closes_the_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = scripted(monkeypatch, pages={"urls": ["https://dev1.service-now.com/other"]}, close={})
    ctx = context(tmp_path, tree=ADDRESS_BAR.format("dev1.service-now.com/now/cart"))
    assert workarena_task_result(ctx, {"type": "workarena_task_result"}) == "failed"
    assert [route for route, _ in script.calls] == ["/pages", "/close"]


def test_result_a_validation_workarena_cannot_complete_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted(monkeypatch, pages={"urls": ["https://dev1.service-now.com/a"]},
             validate=WorkArenaError("WorkArena's session, /validate: HTTPError: 401"))
    ctx = context(tmp_path, tree=ADDRESS_BAR.format("dev1.service-now.com/a"))
    assert workarena_task_result(ctx, {"type": "workarena_task_result"}) == "failed"


def test_result_without_a_set_up_task_is_a_harness_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted(monkeypatch, pages=WorkArenaError("WorkArena's session, /pages: RuntimeError: no WorkArena task"))
    ctx = context(tmp_path, tree=ADDRESS_BAR.format("dev1.service-now.com/a"))
    with pytest.raises(WorkArenaError, match="no WorkArena task"):
        workarena_task_result(ctx, {"type": "workarena_task_result"})


def test_session_port_is_published_for_the_servicenow_snapshot() -> None:
    assert servicenow.SESSION_PORT in load_snapshots()["servicenow"].ports
