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
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.testing.waiting import wait_until
from tests.support.containers import containers_of
from tests.support.rfb import Frame, RFBClient, rfb_session

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
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def ended(self) -> bool:
        """Whether the run has ended; once it has, every line it printed has been read."""
        if self.proc.poll() is None:
            return False
        self._reader.join(timeout=30)
        return True

    def assert_running(self) -> None:
        """Fail at once, with the run's output, when the run has ended: what a test waits for
        during the run will not come."""
        assert not self.ended(), "the run ended first:\n" + "\n".join(self.lines[-80:])

    def wait_for_line(self, pattern: re.Pattern[str], timeout: float = 600) -> re.Match[str]:
        def first_match() -> re.Match[str] | None:
            ended = self.ended()  # before reading the lines: a line printed just before the end counts
            found = next((match for line in list(self.lines) if (match := pattern.search(line))), None)
            if found is None and ended:
                self.assert_running()
            return found

        return wait_until(first_match, timeout=timeout, what=f"a line matching {pattern.pattern}", interval=0.2,
                          show=lambda _: "no such line; the last lines:\n" + "\n".join(self.lines[-20:]))

    def finish(self, timeout: float = 1200) -> str:
        try:
            self.proc.wait(timeout=timeout)
        finally:
            self.proc.kill()
        self._reader.join(timeout=30)  # the run's last lines: the reader stops at the end of its output
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


def desktop_frame(client: RFBClient, min_colours: int, what: str, timeout: float = 90) -> Frame:
    """The live view's first frame showing more than ``min_colours`` colours: a desktop is drawn
    a moment after its view opens, an application's window a moment after it is mapped."""
    return wait_until(client.frame, lambda frame: frame.colours() > min_colours, timeout=timeout, what=what,
                      show=Frame.summary)


def guest_text(run: Run, path: str) -> str | None:
    """A file of the run's desktop as it is now, read beside the run through Docker (None while
    no container of the run has it)."""
    run.assert_running()
    for container in containers_of(run.proc.pid):
        try:
            code, output = container.exec_run(["cat", path])
        except docker.errors.APIError:
            continue  # a container going away (the run released it)
        if code == 0:
            return output.decode(errors="replace")
    return None


def duration(env: Environment, video: bytes) -> float:
    """Seconds of an MP4 as ffprobe (in the desktop image, beside ffmpeg) decodes it."""
    env.upload(video, "/tmp/probe.mp4")
    probe = env.execute(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                         "/tmp/probe.mp4"])
    assert probe.ok, probe.stderr
    return float(probe.stdout.strip())


MP4_INLINE = "data:video/mp4;base64,"
#: The charts of the overview, one per grouping.
CHARTS = ("app", "difficulty", "interface", "variant")
#: The overview of the subset's run: every task passed; a header and the subset's three categories.
OVERVIEW = {"overview visible": True, "success rate 100.0%": True, "rows of the category table": 1 + 3,
            "bars of the category chart": 3, "charts visible": list(CHARTS), "above the test list": True}


def first_video(page: Page) -> dict[str, Any]:
    """What a report shows of its first video: how its source starts, whether it is visible."""
    video = page.locator("video").first
    source = video.locator("source").first.get_attribute("src", timeout=1000) or ""
    return {"source": source[:len(MP4_INLINE) + 8], "visible": video.is_visible()}


def overview_shown(page: Page) -> dict[str, Any]:
    """What a report's overview shows, in the terms of :data:`OVERVIEW`."""
    overview = page.locator("#spider2v-overview")
    category = page.locator("#spider2v-by-category")
    top = overview.bounding_box(timeout=1000)
    table = page.locator("#results-table").bounding_box(timeout=1000)
    return {
        "overview visible": overview.is_visible(),
        "success rate 100.0%": "Success rate 100.0%" in overview.inner_text(timeout=1000),
        "rows of the category table": category.locator("table tr").count(),
        "bars of the category chart": category.locator("svg [id^='bar-']").count(),
        "charts visible": [title for title in CHARTS if page.locator(f"#spider2v-by-{title} svg").is_visible()],
        "above the test list": bool(top and table and top["y"] + top["height"] <= table["y"]),
    }


# -- the guest's side, directly ---------------------------------------------------------------


def test_the_guest_serves_its_desktop_and_records_it(desktop_env: Environment) -> None:
    url = desktop_env.live_view(view_only=True)
    with rfb_session(url) as client:
        frame = desktop_frame(client, 1, "the desktop drawn in the live view")
    assert (frame.width, frame.height) == desktop_env.screen_size()
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
        frame = desktop_frame(client, 16, "a desktop with a terminal on it, not a blank screen")
    assert frame.width >= 1024 and frame.height >= 768
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
    assert MP4_INLINE in report

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(html.as_uri())
            page.click("#show_all_details")
            wait_until(lambda: first_video(page),
                       lambda video: video["source"].startswith(MP4_INLINE) and video["visible"], timeout=30,
                       what="the report to show the episode's video, inline", retry_on=(PlaywrightError,))
        finally:
            browser.close()


# -- 3. a person as the agent -----------------------------------------------------------------


def test_a_person_types_through_the_live_view_says_done_and_the_task_scores_1(tmp_path: Path) -> None:
    write_task(tmp_path, "by-hand", "cat /home/user/Desktop/person.txt", "typed by a person", config=OPEN_TERMINAL)
    port = free_port()
    run = Run("tasks", "--agent", "human", "--agent-option", f"port={port}", "--agent-option", "terminal=no",
              "--agent-option", "every=2", "--results-dir", str(tmp_path / "r"), cwd=tmp_path)
    page = f"http://127.0.0.1:{port}/"

    def page_state() -> dict[str, Any]:
        run.assert_running()
        return httpx.get(page + "state").json()

    # the episode has begun (its deadline is set) once setup is done: the terminal is open
    state = wait_until(page_state, lambda state: state["awaiting_verdict"] and state["deadline"], timeout=600,
                       what="the person's episode to begin", retry_on=(httpx.HTTPError,))
    assert "view_only" not in state["live_url"]
    with rfb_session(state["live_url"]) as client:
        frame = desktop_frame(client, 16, "the terminal drawn in the live view")
        client.click(frame.width // 2, frame.height // 2)  # into the maximized terminal
        time.sleep(0.5)
        client.type("echo 'typed by a person' > person.txt\n")
    # a person says DONE once they see their command has run
    wait_until(lambda: guest_text(run, "/home/user/Desktop/person.txt"), lambda text: text == "typed by a person\n",
               timeout=30, what="the typed command to write ~/Desktop/person.txt")
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

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                             args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(html.as_uri())
            wait_until(lambda: overview_shown(page), lambda shown: shown == OVERVIEW, timeout=30,
                       what=f"the report to open with the run's overview, {OVERVIEW}", retry_on=(PlaywrightError,))
        finally:
            browser.close()
