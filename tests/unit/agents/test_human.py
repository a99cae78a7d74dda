"""``--agent human``: the person's page and terminal, the agent's turns, and a whole run in the
screen stand-in where the "person" answers through the page, as the end-to-end test does after
typing through the real live view."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from _pytest.outcomes import Skipped

from pytest_spider2v.agents.human import HumanAgent, Terminal, make_human, parse_verdict, worker_port
from pytest_spider2v.agents.human_page import PersonPage, Verdict
from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.run.agent import AgentSettings, Observation
from pytest_spider2v.run.lifecycle import TaskRun
from pytest_spider2v.run.settings import EpisodeSettings, RunSettings
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.testing.factories import answer_evaluator, make_task, start_record, task_document, write_task
from tests.support.shared import REPO

SCREEN = Observation(b"png")
DOCUMENT = task_document(id="month", instruction="Which month <b>peaked</b>?", related_apps=["chromium"],
                         tags=["data_analysis_and_visualization", "gui"], action_number=2,
                         evaluator=answer_evaluator("March"))


def task() -> Task:
    return make_task(DOCUMENT)


@pytest.fixture
def page() -> Iterator[PersonPage]:
    served = PersonPage()
    yield served
    served.close()


@pytest.fixture
def agent(page: PersonPage) -> HumanAgent:
    human = HumanAgent(page, Terminal(None, False), every=0.05)
    human.reset(task())
    return human


def test_while_the_person_works_every_turn_is_a_wait(agent: HumanAgent) -> None:
    agent.live_view_opened("http://127.0.0.1:6080/vnc.html")
    assert agent.act("x", SCREEN).actions == ["WAIT"]
    assert agent.act("x", SCREEN).actions == ["WAIT"]


def test_done_on_the_page_ends_the_episode_with_the_answer(agent: HumanAgent, page: PersonPage) -> None:
    reply = httpx.post(page.url + "verdict", json={"verdict": "done", "answer": " March "})
    assert reply.status_code == 200 and "DONE received" in reply.json()["message"]
    turn = agent.act("x", SCREEN)
    assert turn.actions == [{"action_type": "DONE", "answer": "March"}]
    assert turn.response == "the person said DONE (page): March"


def test_fail_from_a_form_post_ends_the_episode_and_a_second_verdict_is_refused(
        agent: HumanAgent, page: PersonPage) -> None:
    assert httpx.post(page.url + "verdict", data={"verdict": "FAIL", "answer": "ignored"}).status_code == 200
    assert agent.act("x", SCREEN).actions == ["FAIL"]
    assert httpx.post(page.url + "verdict", data={"verdict": "DONE"}).status_code == 409


def test_the_page_refuses_what_is_no_verdict_and_before_any_task(page: PersonPage) -> None:
    assert httpx.post(page.url + "verdict", json={"verdict": "DONE"}).status_code == 409
    assert "No task has started yet" in httpx.get(page.url).text
    page.begin("chromium/month [abstract]", "x")
    assert httpx.post(page.url + "verdict", json={"verdict": "maybe"}).status_code == 400
    assert httpx.post(page.url + "verdict", content=b"{not json", headers={"Content-Type": "application/json"}
                      ).status_code == 400
    assert httpx.get(page.url + "elsewhere").status_code == 404


def test_the_page_shows_the_instruction_escaped_beside_the_desktop(agent: HumanAgent, page: PersonPage) -> None:
    assert agent.live_view_opened("http://127.0.0.1:6080/vnc.html?autoconnect=1&x=1") == page.url
    html = httpx.get(page.url).text
    assert "Which month &lt;b&gt;peaked&lt;/b&gt;?" in html and "<b>peaked" not in html
    assert '<iframe src="http://127.0.0.1:6080/vnc.html?autoconnect=1&amp;x=1"' in html
    assert 'id="done"' in html and 'id="fail"' in html
    state = httpx.get(page.url + "state").json()
    assert state["task"] == "chromium/month [abstract]" or state["task"].startswith("chromium/month")
    assert state["awaiting_verdict"] is True and state["live_url"].endswith("&x=1")


def test_the_deadline_is_shown_once_the_episode_starts(agent: HumanAgent, page: PersonPage) -> None:
    agent.episode_settings(EpisodeSettings(time_limit=600))
    agent.act("x", SCREEN)
    assert page.state()["deadline"] == pytest.approx(time.time() + 600, abs=5)


def test_a_new_task_clears_an_old_verdict(agent: HumanAgent, page: PersonPage) -> None:
    page.give(Verdict("DONE"))
    agent.reset(task())
    assert agent.act("x", SCREEN).actions == ["WAIT"]


def test_a_person_is_bounded_by_time_not_turns(agent: HumanAgent) -> None:
    limits = agent.episode_settings(EpisodeSettings(max_steps=15, time_limit=1800, sleep_after_action=0.5))
    assert limits.max_steps == sys.maxsize and limits.time_limit == 1800 and limits.sleep_after_action == 0.5


def test_the_terminal_reads_a_typed_line(page: PersonPage) -> None:
    main, child = os.openpty()
    try:
        terminal = Terminal(child, readable=True)
        human = HumanAgent(page, terminal, every=2.0)
        human.reset(task())
        os.write(main, b"nonsense\n")
        os.write(main, b"done   March\n")
        turn = human.act("x", SCREEN)
        assert turn.actions == [{"action_type": "DONE", "answer": "March"}]
        assert turn.response == "the person said DONE (terminal): March"
        assert b"type DONE (or DONE <answer>) or FAIL" in read_until(main, b"then Enter")
    finally:
        os.close(main)
        os.close(child)


def read_until(fd: int, end: bytes, timeout: float = 5.0) -> bytes:
    """What a terminal showed, up to ``end`` (the tty layer hands output over in its own time)."""
    shown, deadline = b"", time.monotonic() + timeout
    while end not in shown and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            shown += os.read(fd, 4096)
    return shown


@pytest.mark.parametrize(("line", "verdict"), [
    ("DONE", Verdict("DONE", None, "terminal")), ("fail", Verdict("FAIL", None, "terminal")),
    ("FAIL it cannot be done", Verdict("FAIL", None, "terminal")),
    ("Done 42\n", Verdict("DONE", "42", "terminal")), ("", None), ("DONEZO", None), ("not done", None),
])
def test_verdicts_typed_in_the_terminal(line: str, verdict: Verdict | None) -> None:
    assert parse_verdict(line) == verdict


def test_options_are_checked_and_each_worker_gets_its_own_port() -> None:
    with pytest.raises(ValueError, match="unknown agent option.*colour.*known: port, every, terminal"):
        make_human(AgentSettings("human", options={"colour": "red"}))
    with pytest.raises(ValueError, match="'every' must be a positive"):
        make_human(AgentSettings("human", options={"every": "0"}))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(ValueError, match="cannot listen on 127.0.0.1:.*choose another --agent-option port=N"):
            make_human(AgentSettings("human", options={"port": str(taken.getsockname()[1])}))
    assert worker_port(8700, "gw3") == 8703 and worker_port(0, "gw3") == 0
    assert worker_port(8700, None) == 8700


# -- a whole run ------------------------------------------------------------------------------


CONFTEST = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
from pytest_spider2v.testing.screen import register
register()
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(url: str, ready, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = httpx.get(url, timeout=2).json()
            if ready(state):
                return state
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} never became ready")


def test_a_person_answers_through_the_page_and_the_task_scores_1(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    write_task(pytester.path, DOCUMENT)
    port = free_port()
    # not an xdist worker, whatever the test runs under (a worker's page would take port + N)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "tasks", "--agent", "human", "--provider", "screen", "-p", "no:cacheprovider",
         "--agent-option", f"port={port}", "--agent-option", "every=0.2", "--agent-option", "terminal=no",
         "--sleep-after-action", "0", "--max-steps", "1"],
        cwd=pytester.path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        state = wait_for(f"http://127.0.0.1:{port}/state", lambda s: s["awaiting_verdict"] and s["live_url"])
        assert state["live_url"] == "http://127.0.0.1:6080/vnc.html?autoconnect=1"  # input enabled: no view_only
        time.sleep(1.0)  # a few WAIT turns: more than --max-steps allows an agent
        assert httpx.post(f"http://127.0.0.1:{port}/verdict", json={"verdict": "DONE", "answer": "March"}
                          ).status_code == 200
        output, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, output
    assert f"human agent's page for tasks/chromium/month/task.json::month[abstract]: http://127.0.0.1:{port}/" in output
    assert "(input enabled)" in output
    record = json.loads((pytester.path / "results" / "human" / "chromium" / "month-abstract" / "result.json").read_text())
    assert record["agent"] == "human" and record["status"] == "passed" and record["stop_reason"] == "DONE"
    assert record["answer"] == "March"
    assert record["live_view"] == {"url": state["live_url"], "view_only": False, "page": f"http://127.0.0.1:{port}/"}
    kinds = [step["kind"] for step in record["steps"]]
    assert kinds[-1] == "DONE" and kinds.count("WAIT") >= 2 and set(kinds[:-1]) == {"WAIT"}
    assert all(step["observation"]["screenshot"] for step in record["steps"])  # every few seconds, and on DONE


def run_for_a_person(tmp_path: Path, page: PersonPage, env_change) -> TaskRun:
    from pytest_spider2v.testing.screen import ScreenProvider

    provider = ScreenProvider()
    acquire = provider.acquire

    def changed(snapshot: str):
        env = acquire(snapshot)
        env_change(env)
        return env

    provider.acquire = changed  # type: ignore[method-assign]
    record = start_record(tmp_path / "record", task(), agent="human")
    settings = RunSettings(EpisodeSettings(sleep_after_action=0))
    return TaskRun(task(), record, "human", lambda: HumanAgent(page, Terminal(None, False), 0.05), lambda: provider,
                   settings)


def test_a_person_cannot_work_without_a_screen(tmp_path: Path, page: PersonPage) -> None:
    task_run = run_for_a_person(tmp_path, page, lambda env: setattr(env, "display", False))
    with pytest.raises(Skipped, match="agent 'human' works through the live view, and the 'desktop' environment has no"):
        task_run.outcome()
    assert task_run.record.result.status == "skipped"


def test_without_its_live_view_a_persons_task_is_an_error_not_a_score(tmp_path: Path, page: PersonPage) -> None:
    def no_vnc(env) -> None:
        def refuse(*, view_only: bool = True) -> str:
            raise EnvironmentFault("local: POST /live -> 500: x11vnc: not found")
        env.live_view = refuse

    task_run = run_for_a_person(tmp_path, page, no_vnc)
    with pytest.raises(EnvironmentFault, match="x11vnc"):
        task_run.outcome()
    assert task_run.record.result.status == "error"
