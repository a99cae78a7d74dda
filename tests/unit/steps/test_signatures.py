"""Every real Spider2-V task's setup steps must bind to our step signatures, and every step
and getter name of the original harness must be known (implemented or declared)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

import pytest_spider2v.getters.builtin
import pytest_spider2v.getters.web
import pytest_spider2v.steps.builtin
import pytest_spider2v.steps.chrome
import pytest_spider2v.steps.declared
from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.getters.builtin import with_time_suffix
from pytest_spider2v.registry import check_parameters, getters, setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError, log_failure
from pytest_spider2v.steps.builtin import encode_json_values, until_met
from pytest_spider2v.steps.chrome import browser_command, is_offline_url
from pytest_spider2v.testing.factories import make_context, make_task
from pytest_spider2v.testing.fakes import Command, FakeEnvironment
from tests.support.shared import require, sample, task_files

SAMPLE = sample()

#: The 28 step types and 32 getter types found across all 494 published tasks (reference 2.2, 3.3).
ORIGINAL_STEPS = ["google_chrome_browser", "copyfile_from_host_to_guest", "script_and_execute", "launch", "open", "execute", "sleep", "activate_window", "workarena_task_init", "workarena_unique_fields", "airbyte_webui_init", "astro_webui_init", "astro_refresh_page", "superset_webui_init", "dagster_webui_init", "metabase_webui_init", "snowflake_init", "snowflake_login", "snowflake_write_sqls_in_new_worksheet", "snowflake_delete_folder", "snowflake_delete_filter", "hasura_login", "bigquery_init", "bigquery_login", "googledrive_init", "googledrive_login", "dbt_cloud_init", "dbt_cloud_webui_login"]
ORIGINAL_GETTERS = ["vm_file", "vm_script_output", "workarena_task_result", "validate_correct_url", "bigquery_table_to_csv", "snowflake_table_to_csv", "active_url_from_accessTree", "dbt_job_info", "bigquery_sql_result_to_csv", "dbt_project_info", "snowflake_database_schema_to_csv", "html_check", "dbt_environment_info", "active_tab_info", "metabase_question_sql", "snowflake_worksheet_sql", "airbyte_localhost_page", "superset_localhost_page", "bigquery_datasets", "bigquery_connections", "googlesheet_active_file", "dbt_profiles", "vm_command_line", "snowflake_execution_result", "snowflake_worksheet_names_in_folder", "snowflake_function_result", "snowflake_log_message", "snowflake_user_info", "snowflake_worksheet_sql_result", "rule", "local_file", "list"]


def sample_steps() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for path in task_files(SAMPLE):
        task = json.loads(path.read_text(encoding="utf-8"))
        steps = task["config"] + task["evaluator"].get("postconfig", [])
        out += [(f"{path.parent.parent.name}/{path.stem[:8]}", i, s) for i, s in enumerate(steps)]
    return out


@pytest.mark.sample
def test_sample_is_present() -> None:
    """The parametrised tests below have nothing to check without the sample."""
    assert task_files(require(SAMPLE))


@pytest.mark.parametrize("where,index,step", sample_steps(), ids=lambda v: v if isinstance(v, str) else None)
def test_sample_step_binds(where: str, index: int, step: dict[str, Any]) -> None:
    assert step["type"] in setup_steps, f"{where}: unknown step {step['type']}"
    fn = setup_steps.entry(step["type"]).obj
    if fn is not None:
        assert check_parameters(fn, 1, step.get("parameters", {})) is None


@pytest.mark.sample
def test_sample_getters_known() -> None:
    for path in task_files(require(SAMPLE)):
        ev = json.loads(path.read_text(encoding="utf-8"))["evaluator"]
        for slot in ("result", "expected"):
            specs = ev.get(slot) if isinstance(ev.get(slot), list) else [ev.get(slot)]
            for spec in filter(None, specs):
                assert spec["type"] in getters, f"{path}: unknown getter {spec['type']}"


@pytest.mark.parametrize("name", ORIGINAL_STEPS)
def test_every_original_step_is_known(name: str) -> None:
    assert name in setup_steps


@pytest.mark.parametrize("name", ORIGINAL_GETTERS)
def test_every_original_getter_is_known(name: str) -> None:
    assert name in getters


def test_implemented_names() -> None:
    assert set(setup_steps.available()) >= {
        "google_chrome_browser", "copyfile_from_host_to_guest", "script_and_execute", "launch",
        "open", "execute", "command", "sleep", "activate_window", "close_window",
    }
    assert set(getters.available()) >= {"vm_file", "vm_script_output", "vm_command_line", "local_file", "rule", "list"}


def test_cloud_declarations_name_their_account() -> None:
    assert setup_steps.entry("snowflake_login").meta["account"] == "snowflake"
    assert setup_steps.entry("snowflake_login").meta["console"]  # waived against an emulator
    assert setup_steps.entry("snowflake_delete_folder").meta["not_emulated"]  # Snowsight's state: not waived
    assert setup_steps.entry("workarena_task_init").meta["account"] == "servicenow"
    assert getters.entry("workarena_task_result").meta["account"] == "servicenow"
    assert "web UI" in (setup_steps.entry("metabase_webui_init").unavailable or "")
    assert getters.entry("dbt_job_info").meta["account"] == "dbt_cloud"
    assert getters.entry("html_check").obj is not None  # local getters are implemented (pytest_spider2v.getters.web)


def test_chrome_signature_accepts_original_parameters() -> None:
    params = {"debugging_port": 1337, "listening_port": 9222, "urls": ["https://www.bing.com/"],
              "full_screen": True, "incognito": False}
    assert check_parameters(setup_steps.get("google_chrome_browser"), 1, params) is None


@pytest.mark.parametrize(
    "url,offline",
    [
        ("https://www.bing.com/", False),
        ("https://app.snowflake.com", False),
        ("http://localhost:8088", True),
        ("http://127.0.0.1:3000/assets", True),
        ("file:///home/user/index.html", True),
        ("about:blank", True),
    ],
)
def test_offline_urls(url: str, offline: bool) -> None:
    assert is_offline_url(url) is offline


def test_browser_command_flags() -> None:
    cmd = browser_command(1337, full_screen=True, incognito=True)
    assert cmd[:2] == ["google-chrome", "--remote-debugging-port=1337"]
    assert {"--start-maximized", "--incognito"} <= set(cmd)
    assert browser_command(1337, False, False) == ["google-chrome", "--remote-debugging-port=1337"]


def test_until_conditions() -> None:
    r = ExecResult(1, "server is Ready now", "warn")
    assert until_met({"stdout": "Ready"}, r)
    assert until_met({"returncode": 1}, r)
    assert not until_met({"returncode": 0}, r)
    assert not until_met({"stderr": "fatal"}, r)


def test_json_encode_base64s_values() -> None:
    out = json.loads(encode_json_values(b'{"user": "bob", "port": 443}', "creds.json"))
    assert out == {"user": "Ym9i", "port": "NDQz"}
    with pytest.raises(StepError):
        encode_json_values(b"[1, 2]", "list.json")


def test_time_suffix_goes_before_extension() -> None:
    assert with_time_suffix("/home/user/out.csv", "2024_06_20") == "/home/user/out2024_06_20.csv"
    assert with_time_suffix("report", "2024_06_20") == "report"


def get(ctx: TaskContext, spec: dict[str, Any]) -> Any:
    return getters.get(spec["type"])(ctx, spec)


def host_only_ctx(tmp_path: Path) -> TaskContext:
    """Host-only getters and steps touch ``host_path``/``cache_path`` and no environment (it
    answers nothing): the task's files are under ``tmp_path/task``, its cache ``tmp_path/cache``."""
    root = tmp_path / "task"
    root.mkdir()
    return make_context(task=make_task(root=root), cache_dir=tmp_path / "cache")


def test_local_file_copies_files_and_folders(tmp_path: Path) -> None:
    ctx = host_only_ctx(tmp_path)
    (ctx.task.root / "gold.csv").write_text("a,b\n1,2\n")
    (ctx.task.root / "proj" / "models").mkdir(parents=True)
    (ctx.task.root / "proj" / "models" / "m.sql").write_text("select 1")
    got = get(ctx, {"type": "local_file", "path": "gold.csv", "dest": "g.csv"})
    assert Path(got).read_text() == "a,b\n1,2\n" and Path(got).parent == tmp_path / "cache"
    got_dir = get(ctx, {"type": "local_file", "path": "proj", "dest": "proj"})
    assert (Path(got_dir) / "models" / "m.sql").read_text() == "select 1"
    assert get(ctx, {"type": "local_file", "path": "nope.csv", "dest": "n.csv"}) is None


def test_copyfile_names_missing_host_file(tmp_path: Path) -> None:
    ctx = host_only_ctx(tmp_path)
    with pytest.raises(StepError, match="missing.xlsx"):
        pytest_spider2v.steps.builtin.copyfile_from_host_to_guest(ctx, "missing.xlsx", "/home/user/missing.xlsx")


def test_script_from_url_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StepError, match="offline"):
        pytest_spider2v.steps.builtin.script_and_execute(host_only_ctx(tmp_path), "https://example.com/init.sh")


def test_rule_and_list_getters() -> None:
    assert get(make_context(), {"type": "rule", "rules": {"include": ["succeed"]}}) == {"include": ["succeed"]}
    assert get(make_context(), {"type": "list", "list": [1, 2]}) == [1, 2]


def test_failing_script_logs_tail(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    log_failure("script_and_execute init.sh", ExecResult(2, "x" * 5000 + "END", "boom"))
    assert "exited with 2" in caplog.text and "END" in caplog.text and "boom" in caplog.text
    assert len(caplog.text) < 3000


def windows_appear(opened: str, title: str, after: int = 2) -> FakeEnvironment:
    """A guest holding the file ``opened``, whose ``wmctrl -l`` lists the window ``title`` from its
    call ``after + 1`` on."""
    env = FakeEnvironment(files={opened: b""})

    def wmctrl(command: Command) -> ExecResult:
        assert command == ["wmctrl", "-l"]
        shown = len(env.commands) > after  # this call is already recorded
        return ExecResult(0, "0x01 0 desktop main\n" + (f"0x02 0 desktop {title}\n" if shown else ""), "")

    env.on_execute = wmctrl
    return env


def test_open_waits_for_the_window_titled_with_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pytest_spider2v.steps.builtin.time, "sleep", lambda _: None)
    env = windows_appear("/home/user/SalesRep.xlsx", "SalesRep.xlsx - LibreOffice Calc")
    setup_steps.get("open")(make_context(env), path="/home/user/SalesRep.xlsx")
    assert [call.args for call in env.calls_to("open")] == [("/home/user/SalesRep.xlsx",)] and len(env.commands) == 3


def test_open_carries_on_when_no_window_comes(monkeypatch: pytest.MonkeyPatch,
                                              caplog: pytest.LogCaptureFixture) -> None:
    clock = iter(range(0, 10_000, 10))
    monkeypatch.setattr(pytest_spider2v.steps.builtin.time, "sleep", lambda _: None)
    monkeypatch.setattr(pytest_spider2v.steps.builtin.time, "monotonic", lambda: float(next(clock)))
    env = windows_appear("/home/user/other.txt", "notes.txt (~/Desktop) - gedit", after=10_000)
    with caplog.at_level(logging.WARNING):
        setup_steps.get("open")(make_context(env), path="/home/user/other.txt")
    assert "no window titled with 'other.txt'" in caplog.text


class _Page:
    def __init__(self, fails: bool = False) -> None:
        self.waited: list[tuple[str, float]] = []
        self.fails = fails

    def wait_for_load_state(self, state: str, timeout: float) -> None:
        self.waited.append((state, timeout))
        if self.fails:
            from playwright.sync_api import Error as PlaywrightError
            raise PlaywrightError("Timeout 30000ms exceeded")

    def wait_for_function(self, expression: str, timeout: float) -> None:
        self.waited.append(("ready" if "addShortcut" in expression else expression, timeout))


class _Context:
    def __init__(self, pages: list[_Page], attach_after: int = 0) -> None:
        self._pages, self._polls = pages, attach_after

    @property
    def pages(self) -> list[_Page]:
        """The start tab attaches only after a few polls, as right after start-up."""
        if self._polls > 0:
            self._polls -= 1
            return []
        return self._pages


class _Browser:
    def __init__(self, contexts: list[_Context]) -> None:
        self.contexts = contexts


def test_a_browser_without_start_pages_is_ready_once_its_start_tab_has_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two resets of a task that opens no page must not differ by how far the New Tab page got."""
    from pytest_spider2v.steps import chrome
    monkeypatch.setattr(chrome.time, "sleep", lambda _: None)
    tab = _Page()
    chrome.wait_start_page(_Browser([_Context([tab], attach_after=3)]))  # type: ignore[arg-type]
    assert [state for state, _ in tab.waited] == ["load", "ready"]  # then the New Tab page's tiles
    assert all(0 < timeout <= chrome.START_PAGE_TIMEOUT * 1000 for _, timeout in tab.waited)


def test_a_start_tab_that_does_not_load_is_logged_not_an_error(caplog: pytest.LogCaptureFixture) -> None:
    from pytest_spider2v.steps import chrome
    chrome.wait_start_page(_Browser([_Context([_Page(fails=True)])]))  # type: ignore[arg-type]
    assert "the start tab did not load" in caplog.text
    chrome.wait_start_page(_Browser([]))  # type: ignore[arg-type]  # no context: nothing to wait for
