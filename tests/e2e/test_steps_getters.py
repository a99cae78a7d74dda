"""Setup steps and getters against a real desktop container (image spider2v/desktop:latest).

Nothing is mocked: steps and getters talk to the guest server in a container started by the
Docker provider, and the browser test attaches Playwright to the guest's Chromium.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

import pytest_spider2v.getters.builtin
import pytest_spider2v.providers.docker.provider
import pytest_spider2v.steps.builtin as steps
import pytest_spider2v.steps.chrome  # noqa: F401  (registers google_chrome_browser)
from pytest_spider2v.environments.base import Environment
from pytest_spider2v.registry import getters, setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import Task, TaskSpec
from pytest_spider2v.testing.waiting import wait_until
from tests.support.shared import require, sample, shared

pytestmark = pytest.mark.e2e

IMAGE = "spider2v/desktop:latest"
WORK = "/home/user/e2e"
WINDOW_TIMEOUT = 90.0


@pytest.fixture(scope="module")
def env(desktop_env: Environment) -> Environment:
    desktop_env.execute(["mkdir", "-p", WORK])
    return desktop_env


@pytest.fixture
def ctx(env: Environment, make_context) -> TaskContext:
    return make_context(env, "excel")


def run(ctx: TaskContext, step_type: str, **parameters: object) -> None:
    """Run a step through the registry, as the runner does."""
    setup_steps.get(step_type)(ctx, **parameters)


def get(ctx: TaskContext, spec: dict[str, object]) -> object:
    """Run a getter through the registry, as the evaluator does."""
    return getters.get(str(spec["type"]))(ctx, spec)


def wait_for_window(env: Environment, title: str) -> None:
    wait_until(lambda: env.execute(["wmctrl", "-l"]).stdout, lambda windows: title in windows,
               timeout=WINDOW_TIMEOUT, what=f"a window {title!r} in wmctrl -l")


def test_copyfile_then_vm_file_round_trip(ctx: TaskContext) -> None:
    payload = os.urandom(300_000)
    (ctx.task.root / "blob.bin").write_bytes(payload)
    run(ctx, "copyfile_from_host_to_guest", src="blob.bin", dest=f"{WORK}/sub/blob.bin")
    local = get(ctx, {"type": "vm_file", "path": f"{WORK}/sub/blob.bin", "dest": "blob.bin"})
    assert local == str(ctx.cache_dir / "blob.bin")
    assert Path(local).read_bytes() == payload


def test_copyfile_json_encode(ctx: TaskContext) -> None:
    (ctx.task.root / "creds.json").write_text(json.dumps({"user": "bob"}))
    run(ctx, "copyfile_from_host_to_guest", src="creds.json", dest=f"{WORK}/creds.json", json_encode=True)
    assert json.loads(ctx.env.download(f"{WORK}/creds.json") or b"{}") == {"user": "Ym9i"}


def test_vm_file_missing_is_none_and_multi_gives(ctx: TaskContext) -> None:
    assert get(ctx, {"type": "vm_file", "path": f"{WORK}/no-such-file", "dest": "x"}) is None
    ctx.env.execute(["bash", "-c", f"printf one > {WORK}/one.txt; printf two > {WORK}/two.txt"])
    got = get(ctx, {
        "type": "vm_file", "multi": True, "gives": [0, 2],
        "path": [f"{WORK}/one.txt", f"{WORK}/two.txt", f"{WORK}/absent.txt"],
        "dest": ["one.txt", "two.txt", "absent.txt"],
    })
    assert isinstance(got, list) and len(got) == 2
    assert Path(got[0]).read_text() == "one" and got[1] is None
    assert (ctx.cache_dir / "two.txt").read_text() == "two"  # fetched though not given


def test_script_and_execute_creates_file_and_cleans_up(ctx: TaskContext) -> None:
    (ctx.task.root / "init.sh").write_text(f'#!/bin/bash\necho "made by $1 as $(whoami)" > {WORK}/made.txt\n')
    run(ctx, "script_and_execute", src="init.sh", dest=f"{WORK}/init.sh", options=["init"])
    assert ctx.env.download(f"{WORK}/made.txt") == b"made by init as user\n"
    assert ctx.env.download(f"{WORK}/init.sh") is None  # removed after running


def test_script_and_execute_failure_is_logged(ctx: TaskContext, caplog: pytest.LogCaptureFixture) -> None:
    (ctx.task.root / "bad.sh").write_text("echo partial-output\necho broken >&2\nexit 3\n")
    run(ctx, "script_and_execute", src="bad.sh", dest=f"{WORK}/bad.sh")
    assert "exited with 3" in caplog.text and "broken" in caplog.text


def test_execute_until_waits_for_condition(ctx: TaskContext) -> None:
    flag = f"{WORK}/ready.flag"
    ctx.env.execute(["rm", "-f", flag])
    run(ctx, "launch", command=["bash", "-c", f"sleep 2; touch {flag}"])
    started = time.monotonic()
    run(ctx, "execute", command=["bash", "-c", f"test -f {flag} && echo READY"],
        until={"stdout": "READY"}, stdout="ready.out")
    assert time.monotonic() - started >= 1.0
    assert (ctx.cache_dir / "ready.out").read_text().strip() == "READY"


def test_execute_until_gives_up_with_reason(ctx: TaskContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(steps, "UNTIL_TIMEOUT", 1.5)
    with pytest.raises(steps.StepError, match="never-printed"):
        run(ctx, "command", command="echo something-else", shell=True, until={"stdout": "never-printed"})


def test_open_xlsx_then_activate_window(ctx: TaskContext) -> None:
    book = Workbook()
    book.active["A1"] = "spider2v"
    book.save(ctx.task.root / "E2eBook.xlsx")
    run(ctx, "copyfile_from_host_to_guest", src="E2eBook.xlsx", dest="/home/user/E2eBook.xlsx")
    run(ctx, "open", path="/home/user/E2eBook.xlsx")
    title = "E2eBook.xlsx - LibreOffice Calc"
    wait_for_window(ctx.env, title)
    run(ctx, "activate_window", window_name=title, strict=True)
    wait_until(lambda: ctx.env.execute(["xdotool", "getactivewindow", "getwindowname"]).stdout.strip(),
               lambda active: active == title, timeout=30, what=f"{title!r} to be the active window")


def test_google_chrome_browser_opens_local_page(ctx: TaskContext) -> None:
    page = f"{WORK}/start.html"
    ctx.env.upload(b"<html><head><title>Spider2V E2E Start</title></head><body><h1>hi</h1></body></html>", page)
    started = time.monotonic()
    run(ctx, "google_chrome_browser", debugging_port=1337, listening_port=9222,
        urls=[f"file://{page}", "https://www.bing.com/"], full_screen=True)
    assert time.monotonic() - started < 60, "an internet start page must not hold the step"

    # CDP lists tabs in attach order, not tab-strip order; the start tab must be gone, and the
    # page loaded (its title comes with it).
    def as_opened(titles: dict[str, str]) -> bool:
        return sorted(titles) == ["about:blank", f"file://{page}"] and titles[f"file://{page}"] == "Spider2V E2E Start"

    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(ctx.env.host_url(9222))
        wait_until(lambda: {pg.url: pg.title() for pg in browser.contexts[0].pages}, as_opened, timeout=30,
                   what="the tabs about:blank and the page titled 'Spider2V E2E Start'", retry_on=(PlaywrightError,))
    running = ctx.env.execute(["bash", "-c", "pgrep -f remote-debugging-port=1337 >/dev/null && echo up"])
    assert running.stdout.strip() == "up"  # disconnecting Playwright left the browser running


def test_vm_script_output_returns_stdout(ctx: TaskContext) -> None:
    (ctx.task.root / "eval.sh").write_text("#!/bin/bash\necho 'check succeed'\necho noise >&2\n")
    out = get(ctx, {"type": "vm_script_output", "src": "eval.sh", "dest": f"{WORK}/eval.sh"})
    assert out == "check succeed\n"
    shelled = get(
        ctx, {"type": "vm_script_output", "src": "eval.sh", "dest": f"{WORK}/eval 2.sh", "shell": True}
    )
    assert shelled == "check succeed\n"


def test_vm_command_line_returns_stdout(ctx: TaskContext) -> None:
    out = get(ctx, {"type": "vm_command_line", "command": f"echo {shlex.quote('a b')} | tr a-z A-Z",
                                   "shell": True})
    assert out == "A B\n"


def test_local_file_copies_into_cache(ctx: TaskContext) -> None:
    (ctx.task.root / "gold.csv").write_text("x,y\n1,2\n")
    got = get(ctx, {"type": "local_file", "path": "gold.csv", "dest": "gold.csv"})
    assert got == str(ctx.cache_dir / "gold.csv") and Path(got).read_text() == "x,y\n1,2\n"
    assert get(ctx, {"type": "local_file", "path": "absent.csv", "dest": "a.csv"}) is None


SAMPLE_ROOT = shared("spider2v-sample")
EXCEL_TASK = sample("excel", "0326d92d-d218-48a8-9ca1-981cd6d064c7")


@pytest.mark.sample
def test_real_excel_task_setup_edit_save_and_fetch(env: Environment, tmp_path: Path) -> None:
    """A published task's own config and postconfig, with an edit in between, as in an episode:
    open the workbook, type into a cell, then activate + Ctrl+S + fetch the result file.
    (A number is typed because Calc's autocorrect would capitalise a word.)"""
    path = require(EXCEL_TASK / f"{EXCEL_TASK.name}.json")
    spec = TaskSpec.model_validate_json(path.read_text(encoding="utf-8"))
    task = Task(spec, path, SAMPLE_ROOT, "spider2v", "abstract", spec.instruction, "excel")
    ctx = TaskContext(env=env, task=task, cache_dir=tmp_path / "cache")
    for step in spec.config:
        run(ctx, step.type, **step.parameters)
    wait_for_window(env, "SalesRep.xlsx - LibreOffice Calc")
    run(ctx, "activate_window", window_name="SalesRep.xlsx - LibreOffice Calc", strict=True)
    typed = env.run_python(
        "pyautogui.hotkey('ctrl', 'end'); pyautogui.press('down'); time.sleep(0.3); "
        "pyautogui.write('987654', interval=0.02); pyautogui.press('enter'); time.sleep(0.5)"
    )
    assert typed.ok, typed.stderr
    for step in spec.evaluator.postconfig:
        run(ctx, step.type, **step.parameters)
    result = spec.evaluator.result
    assert result is not None and not isinstance(result, list)
    local = get(ctx, result.model_dump())
    assert local == str(ctx.cache_dir / "SalesRep.xlsx")
    values = {c.value for row in load_workbook(local).active.iter_rows() for c in row}
    assert 987654 in values, "Ctrl+S in postconfig did not save the edit"
