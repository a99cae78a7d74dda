"""Watching, recording, replaying and a person as the agent, in real containers (issue 13's
acceptance). Each test runs pytest in a subprocess as a user would, and looks at the desktop
through the live view with the test suite's RFB client (:mod:`tests.support.rfb`), the way a
browser's noVNC does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from pytest_spider2v.environments.base import Environment
from tests.support.rfb import rfb_session

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
#: Three project tasks of different apps, two variants each (as the whole-run tests use).
SUBSET = ("-k", "sort-exam-results or update-etl-config or restock-low-inventory")
LIVE_LINE = re.compile(r"live view of (\S+): (http://127\.0\.0\.1:\d+/\S+)")


class Run:
    """A pytest run in the background whose output is read as it comes."""

    def __init__(self, *args: str, cwd: Path = ROOT) -> None:
        # not an xdist worker, whatever the tests run under
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")}
        self.proc = subprocess.Popen([*PYTEST, *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for_line(self, pattern: re.Pattern[str], timeout: float = 600) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if match := pattern.search(line):
                    return match
            assert self.proc.poll() is None, "the run ended first:\n" + "\n".join(self.lines[-80:])
            time.sleep(0.2)
        raise AssertionError(f"no line matching {pattern.pattern} within {timeout:g} s")

    def finish(self, timeout: float = 1200) -> str:
        try:
            self.proc.wait(timeout=timeout)
        finally:
            self.proc.kill()
        time.sleep(0.2)  # the reader's last lines
        return "\n".join(self.lines)


def run_pytest(*args: str, cwd: Path = ROOT, timeout: float = 2400) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PYTEST, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def records(results: Path) -> dict[str, dict[str, Any]]:
    return {p.parent.name: json.loads(p.read_text()) for p in sorted(results.rglob("result.json"))}


def write_task(root: Path, task_id: str, check: str, include: str, config: list | None = None,
               solution: str | None = None) -> None:
    """A project task whose evaluator runs a shell check in the guest."""
    folder = root / "tasks" / "terminal" / task_id
    folder.mkdir(parents=True)
    (folder / "task.json").write_text(json.dumps({
        "id": task_id, "snapshot": "desktop", "instruction": "In the open terminal, write 'typed by a person' into "
        "~/Desktop/person.txt.", "source": [], "related_apps": ["terminal"],
        "tags": ["traditional_data_processing", "cli"], "action_number": 1, "config": config or [],
        "evaluator": {"func": "check_include_exclude",
                      "result": {"type": "vm_command_line", "command": check, "shell": True},
                      "expected": {"type": "rule", "rules": {"include": [include], "exclude": []}}},
    }))
    if solution is not None:
        (folder / "solution.py").write_text(solution)


OPEN_TERMINAL = [
    {"type": "launch", "parameters": {"command": ["gnome-terminal", "--maximize",
                                                  "--working-directory=/home/user/Desktop"]}},
    {"type": "execute", "parameters": {"command": ["wmctrl", "-lx"], "until": {"stdout": "gnome-terminal-server"}}},
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def poll(probe: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = probe()
        except httpx.HTTPError:
            found = None
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(f"{what} within {timeout:g} s")


def duration(env: Environment, video: bytes) -> float:
    """Seconds of an MP4 as ffprobe (in the desktop image, beside ffmpeg) decodes it."""
    env.upload(video, "/tmp/probe.mp4")
    probe = env.execute(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                         "/tmp/probe.mp4"])
    assert probe.ok, probe.stderr
    return float(probe.stdout.strip())


# -- the guest's side, directly ---------------------------------------------------------------


def test_the_guest_serves_its_desktop_and_records_it(desktop_env: Environment) -> None:
    url = desktop_env.live_view(view_only=True)
    with rfb_session(url) as client:
        frame = client.frame()
    assert (frame.width, frame.height) == desktop_env.screen_size() and frame.colours() > 1
    desktop_env.start_recording("/tmp/spider2v/check.mp4")
    time.sleep(4)
    stopped = desktop_env.stop_recording()
    video = desktop_env.download(stopped["path"])
    assert video and stopped["seconds"] == pytest.approx(4, abs=1.5)
    assert duration(desktop_env, video) == pytest.approx(stopped["seconds"], abs=1.5)


# -- 1. the live view -------------------------------------------------------------------------


def test_live_prints_each_tasks_view_and_a_client_receives_the_desktop(tmp_path: Path) -> None:
    write_task(tmp_path, "watched", "echo x", "x", config=OPEN_TERMINAL,
               solution="# %% stay a while, to be watched\nimport time\ntime.sleep(45)\n")
    run = Run("tasks", "--agent", "oracle", "--live", "-n", "1", "--results-dir", str(tmp_path / "r"), cwd=tmp_path)
    nodeid, url = run.wait_for_line(LIVE_LINE).groups()
    assert nodeid == "tasks/terminal/watched/task.json::watched[abstract]" and "view_only=1" in url
    with rfb_session(url) as client:
        frame = client.frame()
    assert frame.width >= 1024 and frame.height >= 768
    assert frame.colours() > 16  # a desktop with a terminal on it, not a blank screen
    output = run.finish()
    assert run.proc.returncode == 0, output[-4000:]
    (record,) = records(tmp_path / "r").values()
    assert record["live_view"] == {"url": url, "view_only": True}


# -- 2. video ---------------------------------------------------------------------------------


def test_record_video_makes_an_mp4_as_long_as_the_episode_and_the_report_plays_it(
        tmp_path: Path, desktop_env: Environment) -> None:
    html = tmp_path / "r.html"
    proc = run_pytest("tasks/", "-k", "restock-low-inventory and abstract", "--agent", "oracle", "--record-video",
                      f"--html={html}", "--self-contained-html", "--results-dir", str(tmp_path / "results"))
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    (record,) = records(tmp_path / "results").values()
    assert record["video"]["file"] == "episode.mp4", record["video"]
    video = next((tmp_path / "results").rglob("episode.mp4")).read_bytes()
    recorded = record["timings"]["episode"] + record["timings"]["evaluation"]
    assert duration(desktop_env, video) == pytest.approx(recorded, abs=max(2.0, 0.1 * recorded))
    report = html.read_text()
    assert "data:video/mp4;base64," in report

    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(html.as_uri())
            page.click("#show_all_details")
            source = page.locator("video source").first
            assert (source.get_attribute("src") or "").startswith("data:video/mp4;base64,")
            assert page.locator("video").first.is_visible()
        finally:
            browser.close()


# -- 3. a person as the agent -----------------------------------------------------------------


def test_a_person_types_through_the_live_view_says_done_and_the_task_scores_1(tmp_path: Path) -> None:
    write_task(tmp_path, "by-hand", "cat /home/user/Desktop/person.txt", "typed by a person", config=OPEN_TERMINAL)
    port = free_port()
    run = Run("tasks", "--agent", "human", "--agent-option", f"port={port}", "--agent-option", "terminal=no",
              "--agent-option", "every=2", "--results-dir", str(tmp_path / "r"), cwd=tmp_path)
    page = f"http://127.0.0.1:{port}/"
    # the episode has begun (its deadline is set) once setup is done: the terminal is open
    state = poll(lambda: (s := httpx.get(page + "state").json())["awaiting_verdict"] and s["deadline"] and s,
                 600, "the person's episode never began")
    assert "view_only" not in state["live_url"]
    with rfb_session(state["live_url"]) as client:
        frame = client.frame()
        client.click(frame.width // 2, frame.height // 2)  # into the maximized terminal
        time.sleep(0.5)
        client.type("echo 'typed by a person' > person.txt\n")
        time.sleep(2)
    assert httpx.post(page + "verdict", json={"verdict": "DONE"}).status_code == 200
    output = run.finish()
    assert run.proc.returncode == 0, output[-4000:]
    assert f"human agent's page for tasks/terminal/by-hand/task.json::by-hand[abstract]: {page}" in output
    (record,) = records(tmp_path / "r").values()
    assert (record["agent"], record["status"], record["score"], record["stop_reason"]) == ("human", "passed", 1.0,
                                                                                          "DONE")
    assert record["live_view"]["view_only"] is False and record["live_view"]["page"] == page
    assert record["steps"][-1]["kind"] == "DONE" and record["steps"][-1]["observation"]["screenshot"]


# -- 4. replay --------------------------------------------------------------------------------


def test_a_replay_scores_as_the_oracle_did_and_names_exactly_the_task_whose_gold_changed(tmp_path: Path) -> None:
    results = tmp_path / "results"
    first = run_pytest("tasks/", *SUBSET, "--agent", "oracle", "-n", "2", "--results-dir", str(results))
    assert first.returncode == 0, first.stdout[-6000:]
    replay = f"replay:{results / 'oracle'}"
    again = run_pytest("tasks/", *SUBSET, "--agent", replay, "-n", "2", "--results-dir", str(results),
                       "--run-name", "replayed")
    assert again.returncode == 0, again.stdout[-6000:]
    assert "every outcome as recorded" in again.stdout
    scores = {name: (r["status"], r["score"]) for name, r in records(results / "oracle").items()}
    assert {name: (r["status"], r["score"]) for name, r in records(results / "replayed").items()} == scores
    assert len(scores) == 6

    copy = tmp_path / "copy"
    for folder in ("calc/sort-exam-results", "gedit/update-etl-config", "sqlite3/restock-low-inventory"):
        shutil.copytree(ROOT / "tasks" / folder, copy / "tasks" / folder)
    with sqlite3.connect(copy / "tasks/sqlite3/restock-low-inventory/inventory_gold.db") as gold:
        gold.execute("UPDATE products SET qty = qty + 1 WHERE rowid = 1")
    changed = run_pytest("tasks", "--agent", replay, "-n", "2", "--results-dir", str(results),
                         "--run-name", "after-change", cwd=copy)
    assert changed.returncode == 1, changed.stdout[-6000:]
    summary = json.loads((results / "after-change" / "summary.json").read_text())
    assert sorted(c["nodeid"].rsplit("::", 1)[1] for c in summary["replay"]["changed"]) == [
        "restock-low-inventory[abstract]", "restock-low-inventory[verbose]"]
    assert {(c["recorded"], c["now"]) for c in summary["replay"]["changed"]} == {("1.00", "0.00")}
    assert "2 outcomes changed (recorded -> now)" in changed.stdout


# -- 5. the run at a glance -------------------------------------------------------------------


def test_the_report_opens_with_the_runs_tables_and_charts(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    proc = run_pytest("tasks/", *SUBSET, "--agent", "oracle", "-n", "2", f"--html={html}", "--self-contained-html",
                      "--results-dir", str(tmp_path / "results"))
    assert proc.returncode == 0, proc.stdout[-6000:]

    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(html.as_uri())
            overview = page.locator("#spider2v-overview")
            results = page.locator("#results-table")
            assert overview.is_visible() and "Success rate 100.0%" in overview.inner_text()
            category = page.locator("#spider2v-by-category")
            assert category.locator("table tr").count() == 1 + 3  # the header and the subset's three categories
            assert category.locator("svg rect.bar").count() == 3
            for title in ("app", "difficulty", "interface", "variant"):
                assert page.locator(f"#spider2v-by-{title} svg").is_visible()
            top, table = overview.bounding_box(), results.bounding_box()
            assert top and table and top["y"] + top["height"] <= table["y"]  # above the test list
        finally:
            browser.close()
