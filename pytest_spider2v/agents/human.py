"""``human``: a person is the agent, in the same harness, environment and evaluation as any
other. This is how a task author tries a new task by hand, and how the paper's human
cross-validation is run.

The run opens the task's live view with input enabled (``needs_live_input``). The person works
on the desktop in a browser: through the person's page (:mod:`.human_page`), which shows the
instruction beside the desktop with DONE and FAIL buttons, or the bare live view. The episode
ends when the person says DONE (with the answer, for a task that asks a question) or FAIL, on
the page or in the terminal; until then every turn is a WAIT, so the episode takes a screenshot
every few seconds (``every``) and one after the verdict, and the record shows the way there.

Limits: WAIT turns are ticks of a clock, not decisions, so ``--max-steps`` does not apply to a
person; the episode is bounded by ``--task-timeout`` alone (1800 s by default), the time an agent
gets. A person who gives no verdict by then (nobody at the keyboard, a run without a terminal)
gets the evaluation of the desktop as it is, like an agent that reaches a limit.

The terminal: pytest captures standard input (and an xdist worker has none), so the person's
terminal is read as ``/dev/tty``, with or without ``-s``. Several xdist workers would share it,
so under xdist only the pages are read (one per worker). Without a terminal, the page alone.

Options (``--agent-option``): ``port`` of the page (default: any free one; worker ``gwN`` of
an xdist run takes ``port + N``), ``every`` seconds between screenshots (default 5),
``terminal=no`` to leave the terminal alone.
"""

from __future__ import annotations

import os
import re
import select
import sys
import time
from dataclasses import replace
from typing import Any

from pytest_spider2v.agents.human_page import VERDICTS, PersonPage, Verdict
from pytest_spider2v.registry import agents
from pytest_spider2v.run.agent import Action, Agent, AgentSettings, Observation, Turn, done_with_answer
from pytest_spider2v.run.settings import EpisodeSettings
from pytest_spider2v.tasks.model import Task

EVERY = 5.0
OPTIONS = ("port", "every", "terminal")
#: How often the page and the terminal are looked at while waiting for a verdict.
POLL = 0.2

#: The process's pages (by port asked for) and terminal: one each for every task it runs.
_pages: dict[int, PersonPage] = {}
_terminals: dict[tuple[bool, bool], Terminal] = {}


def person_page(port: int) -> PersonPage:
    """This process's page on ``port`` (0: any free port), started on first use."""
    if port not in _pages:
        try:
            _pages[port] = PersonPage(port)
        except OSError as exc:
            raise ValueError(f"the human agent's page cannot listen on 127.0.0.1:{port}: {exc}; "
                             "choose another --agent-option port=N") from None
    return _pages[port]


def person_terminal(wanted: bool, readable: bool) -> Terminal:
    """This process's terminal, opened on first use; ``readable`` is false on an xdist worker,
    whose standard input is not the person's."""
    if (wanted, readable) not in _terminals:
        _terminals[wanted, readable] = Terminal.open(wanted, readable)
    return _terminals[wanted, readable]


class Terminal:
    """The person's terminal (``/dev/tty``), or none: then nothing is said or read."""

    def __init__(self, fd: int | None, readable: bool) -> None:
        self._fd = fd
        self.readable = fd is not None and readable

    @classmethod
    def open(cls, wanted: bool, readable: bool = True) -> Terminal:
        if not wanted:
            return cls(None, False)
        try:
            fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
        except OSError:  # no controlling terminal: a CI job, a service, a test's subprocess
            return cls(None, False)
        return cls(fd, readable=readable)

    def say(self, text: str) -> None:
        if self._fd is not None:
            os.write(self._fd, text.encode())

    def verdict(self, timeout: float) -> Verdict | None:
        """A verdict typed within ``timeout`` seconds (a line in canonical mode), else None."""
        if not self.readable or self._fd is None:
            time.sleep(timeout)
            return None
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return None
        line = os.read(self._fd, 4096).decode(errors="replace").strip()
        verdict = parse_verdict(line)
        if verdict is None and line:
            self.say("type DONE (or DONE <answer>) or FAIL, then Enter\n")
        return verdict


def parse_verdict(line: str, source: str = "terminal") -> Verdict | None:
    """``DONE``, ``DONE <answer>`` or ``FAIL [why]`` (any case); anything else is no verdict."""
    match = re.fullmatch(r"(\w+)(?:\s+(.*))?", line.strip(), re.DOTALL)
    if match is None or match.group(1).upper() not in VERDICTS:
        return None
    word, rest = match.group(1).upper(), (match.group(2) or "").strip()
    return Verdict(word, (rest or None) if word == "DONE" else None, source)


class HumanAgent(Agent):
    needs_accessibility_tree = False
    needs_live_input = True

    def __init__(self, page: PersonPage, terminal: Terminal, every: float = EVERY) -> None:
        self.page = page
        self.terminal = terminal
        self.every = every
        self._task: Task | None = None
        self._told = False
        self._time_limit = 0.0

    def reset(self, task: Task) -> None:
        self._task, self._told = task, False
        self.page.begin(task.key, task.instruction)

    def live_view_opened(self, url: str) -> str:
        self.page.show(url)
        return self.page.url

    def episode_settings(self, given: EpisodeSettings) -> EpisodeSettings:
        """Bounded by time alone: a WAIT is a tick of the clock, not a decision (module doc)."""
        self._time_limit = given.time_limit
        return replace(given, max_steps=sys.maxsize)

    def act(self, instruction: str, observation: Observation) -> Turn:
        if not self._told:
            self._told = True
            self.page.set_deadline(time.time() + self._time_limit)
            self._tell(instruction)
        verdict = self._await_verdict(self.every)
        if verdict is None:
            return Turn("waiting for the person's DONE or FAIL", ["WAIT"])
        action: Action = done_with_answer(verdict.answer) if verdict.answer else verdict.word
        said = f"the person said {verdict.word} ({verdict.source})"
        return Turn(said + (f": {verdict.answer}" if verdict.answer else ""), [action])

    def _await_verdict(self, seconds: float) -> Verdict | None:
        deadline = time.monotonic() + seconds
        while True:
            verdict = self.page.take()
            if verdict is not None:
                return verdict
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            typed = self.terminal.verdict(min(POLL, left))
            if typed is not None and self.page.give(typed):
                return self.page.take()

    def _tell(self, instruction: str) -> None:
        key = self._task.key if self._task else "the task"
        typing = ("Type DONE (or DONE <answer>) or FAIL here and press Enter, or use the page's buttons.\n"
                  if self.terminal.readable else "Say DONE or FAIL with the page's buttons.\n")
        self.terminal.say(f"\n=== human agent: {key} ===\n{instruction}\n\n"
                          f"Work on the desktop at {self.page.url} (instruction, desktop, DONE and FAIL).\n{typing}")


def options_of(settings: AgentSettings) -> dict[str, Any]:
    unknown = sorted(set(settings.options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown agent option(s) {', '.join(unknown)} for the human agent; known: {', '.join(OPTIONS)}")
    try:
        port = int(settings.options.get("port") or 0)
        every = float(settings.options.get("every") or EVERY)
    except ValueError as exc:
        raise ValueError(f"bad agent option for the human agent: {exc}") from None
    if every <= 0:
        raise ValueError("the human agent's 'every' must be a positive number of seconds")
    terminal = str(settings.options.get("terminal", "yes")).strip().lower() not in ("no", "false", "0", "off")
    return {"port": port, "every": every, "terminal": terminal}


def worker_port(port: int, worker: str | None) -> int:
    """``port`` for xdist worker ``gwN`` is ``port + N``, so the pages of a run do not collide."""
    return port + int(worker[2:]) if port and worker and worker.startswith("gw") and worker[2:].isdigit() else port


@agents.register("human")
def make_human(settings: AgentSettings) -> HumanAgent:
    options = options_of(settings)
    return HumanAgent(person_page(worker_port(options["port"], settings.worker)),
                      person_terminal(options["terminal"], readable=settings.worker is None), options["every"])
