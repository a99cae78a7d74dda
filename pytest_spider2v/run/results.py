"""The typed content of a task's record: what ``result.json`` and ``trajectory.jsonl`` hold.

Every type writes itself with ``to_json`` in exactly the layout the records have always had
(optional keys left out where they always were) and reads itself back with ``from_json``, which
tolerates missing and unknown keys: a record of an earlier version still loads for ``--resume``
and for a replay. :class:`~pytest_spider2v.run.records.TaskRecord` is the one writer of a record;
everything else (the episode, the evaluation, the reports) makes or reads these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, cast, get_args

from pytest_spider2v.run.agent import Action, ExecutionInfo, RecordedOutcome
from pytest_spider2v.run.json_values import (
    JsonObject,
    flag,
    integer,
    number,
    numbers,
    obj,
    objects,
    optional_integer,
    optional_text,
    text,
    texts,
)
from pytest_spider2v.tasks.model import Task

FINAL_STATUSES = ("passed", "failed")
#: The phases of an attempt that are timed, in the order they run.
Phase = Literal["restore", "setup", "reset", "episode", "evaluation"]
PHASES: tuple[Phase, ...] = get_args(Phase)


@dataclass(frozen=True)
class ObservationFiles:
    """The files of one observation in the record's folder; none for an environment without a screen."""

    screenshot: str | None = None
    accessibility_tree: str | None = None

    def to_json(self) -> JsonObject:
        files: JsonObject = {}
        if self.screenshot is not None:
            files["screenshot"] = self.screenshot
        if self.accessibility_tree is not None:
            files["accessibility_tree"] = self.accessibility_tree
        return files

    @classmethod
    def from_json(cls, data: JsonObject) -> ObservationFiles:
        return cls(optional_text(data, "screenshot"), optional_text(data, "accessibility_tree"))


@dataclass(frozen=True)
class StepTimings:
    """Seconds one action took to run, and to observe the screen after it (per part observed)."""

    execute: float
    observe: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        return {"execute": self.execute, "observe": dict(self.observe)}

    @classmethod
    def from_json(cls, data: JsonObject) -> StepTimings:
        return cls(number(data, "execute") or 0.0, numbers(obj(data, "observe")))


@dataclass(frozen=True)
class Step:
    """One executed action of the episode (or a reply that held none), a line of ``trajectory.jsonl``.

    The turn's reply, usage, prompt and view are kept with its first action; its other actions
    carry empty ones, so summing over the steps counts each turn once.
    """

    index: int  #: the action's number in the episode (a reply without one repeats the last)
    turn: int | None  #: the agent turn it belongs to; None in records from before turns were numbered
    response: str  #: the agent's raw reply
    action: Action | None  #: None when the reply held no valid action
    kind: str  #: "code", "WAIT", "FAIL", "DONE", or "none" for a reply without an action
    info: ExecutionInfo
    duration: float  #: seconds from running the action to having observed its effect
    think: float  #: seconds the agent took to answer
    usage: JsonObject = field(default_factory=dict)  #: the turn's tokens and cost, as the agent counts them
    prompt: list[JsonObject] = field(default_factory=list)  #: the messages the model was sent
    view: str | None = None  #: the image the model was shown, when it was not the raw screenshot
    timings: StepTimings | None = None  #: None for a reply without an action
    observation: ObservationFiles | None = None  #: the observation after it; None for a reply without an action
    answer: str | None = None  #: the final answer a DONE carried

    def to_json(self) -> JsonObject:
        data: JsonObject = {"index": self.index, "turn": self.turn, "response": self.response,
                            "action": self.action, "kind": self.kind,
                            "info": cast(JsonObject, dict(self.info)),  # every value of an ExecutionInfo is JSON
                            "duration": self.duration}
        if self.timings is not None:
            data["timings"] = self.timings.to_json()
        data["think"] = self.think
        if self.observation is not None:
            data["observation"] = self.observation.to_json()
        data.update(usage=self.usage, prompt=self.prompt, view=self.view)
        if self.answer is not None:
            data["answer"] = self.answer
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> Step:
        action = data.get("action")
        return cls(
            index=integer(data, "index"), turn=optional_integer(data, "turn"),
            response=text(data, "response"), action=action if isinstance(action, (str, dict)) else None,
            kind=text(data, "kind"), info=_execution_info(obj(data, "info")),
            duration=number(data, "duration") or 0.0, think=number(data, "think") or 0.0,
            usage=obj(data, "usage"), prompt=list(objects(data, "prompt")), view=optional_text(data, "view"),
            timings=StepTimings.from_json(obj(data, "timings")) if "timings" in data else None,
            observation=ObservationFiles.from_json(obj(data, "observation")) if "observation" in data else None,
            answer=optional_text(data, "answer"),
        )


def _execution_info(data: JsonObject) -> ExecutionInfo:
    info = ExecutionInfo()
    if (status := optional_text(data, "status")) is not None:
        info["status"] = status
    if (output := optional_text(data, "output")) is not None:
        info["output"] = output
    if (error := optional_text(data, "error")) is not None:
        info["error"] = error
    if (returncode := number(data, "returncode")) is not None:
        info["returncode"] = int(returncode)
    if (message := optional_text(data, "message")) is not None:
        info["message"] = message
    return info


@dataclass(frozen=True)
class MetricResult:
    """One metric's verdict in the evaluation."""

    func: str  #: the metric's name
    score: float
    detail: str  #: why: what the metric logged, or "matched" / "did not match"
    #: the parts it judged, for a metric that returns them (a closed-form question's sub-answers:
    #: name, expected, given, correct)
    parts: tuple[JsonObject, ...] = ()
    #: what the metric (or a getter, a file not found) raised instead of judging, "Type: message":
    #: scored 0 by the original's rule, yet no verdict; empty when the metric judged
    raised: str = ""

    def to_json(self) -> JsonObject:
        data: JsonObject = {"func": self.func, "score": self.score, "detail": self.detail}
        if self.parts:
            data["parts"] = [dict(part) for part in self.parts]
        if self.raised:
            data["raised"] = self.raised
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> MetricResult:
        return cls(text(data, "func"), number(data, "score") or 0.0, text(data, "detail"),
                   tuple(objects(data, "parts")), text(data, "raised"))


@dataclass
class TaskTimings:
    """When the task started and finished (epoch seconds), the seconds of each phase of its
    current attempt, and its total from start to finish."""

    started: float | None = None
    phases: dict[Phase, float] = field(default_factory=dict)
    finished: float | None = None
    total: float | None = None

    def seconds(self, phase: Phase) -> float:
        return self.phases.get(phase, 0.0)

    def to_json(self) -> JsonObject:
        data: JsonObject = {} if self.started is None else {"started": self.started}
        data.update(phases_json(self.phases))
        if self.finished is not None:
            data["finished"] = self.finished
        if self.total is not None:
            data["total"] = self.total
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> TaskTimings:
        return cls(number(data, "started"), phase_timings(data), number(data, "finished"), number(data, "total"))


def phase_timings(data: JsonObject) -> dict[Phase, float]:
    """The phases timed in ``data``, in the order they ran."""
    return {phase: seconds for phase in PHASES if (seconds := number(data, phase)) is not None}


def phases_json(phases: dict[Phase, float]) -> JsonObject:
    return {str(phase): seconds for phase, seconds in phases.items()}


@dataclass(frozen=True)
class LiveView:
    """The desktop served to a browser while the task ran (``--live``, or an agent working
    through it), or why it could not be (``error``)."""

    url: str = ""
    view_only: bool = True
    page: str = ""  #: the agent's own page beside the view (a person's DONE/FAIL page)
    error: str = ""

    def to_json(self) -> JsonObject:
        if self.error:
            return {"error": self.error}
        return {"url": self.url, "view_only": self.view_only, **({"page": self.page} if self.page else {})}

    @classmethod
    def from_json(cls, data: JsonObject) -> LiveView:
        return cls(text(data, "url"), flag(data, "view_only", True), text(data, "page"), text(data, "error"))


@dataclass(frozen=True)
class Video:
    """The episode's video (``--record-video``): its file in the record and its length, with
    what the recorder complained of (``problem``); or why there is none (``error``)."""

    file: str = ""
    seconds: float | None = None
    problem: str = ""
    error: str = ""

    def to_json(self) -> JsonObject:
        if self.error:
            return {"error": self.error}
        return {"file": self.file, "seconds": self.seconds, **({"problem": self.problem} if self.problem else {})}

    @classmethod
    def from_json(cls, data: JsonObject) -> Video:
        return cls(text(data, "file"), number(data, "seconds"), text(data, "problem"), text(data, "error"))


@dataclass(frozen=True)
class Repeat:
    """Which of the run's repeats of its task a record is (``--repeat K``): each runs on a fresh
    environment and keeps a record of its own."""

    index: int  #: 1 for the first
    of: int  #: K

    def to_json(self) -> JsonObject:
        return {"index": self.index, "of": self.of}

    @classmethod
    def from_json(cls, data: JsonObject) -> Repeat:
        return cls(integer(data, "index"), integer(data, "of"))


@dataclass(frozen=True)
class Attempt:
    """An earlier attempt at the task that an infrastructure fault ended (``--retries``)."""

    number: int  #: 1 for the first attempt
    detail: str  #: the fault
    folder: str  #: the record's subfolder its files moved to
    step_count: int  #: the steps it had taken
    timings: dict[Phase, float] = field(default_factory=dict)  #: seconds of the phases it got through
    video: Video | None = None

    def to_json(self) -> JsonObject:
        data: JsonObject = {"attempt": self.number, "detail": self.detail, "folder": self.folder,
                            "steps": self.step_count, "timings": phases_json(self.timings)}
        if self.video is not None:
            data["video"] = self.video.to_json()
        return data

    @classmethod
    def from_json(cls, data: JsonObject) -> Attempt:
        video = obj(data, "video")
        return cls(integer(data, "attempt"), text(data, "detail"), text(data, "folder"), integer(data, "steps"),
                   phase_timings(obj(data, "timings")), Video.from_json(video) if video else None)


#: Whom an unsuccessful outcome is charged to.
Party = Literal["agent", "environment", "harness"]
PARTIES: tuple[Party, ...] = get_args(Party)


@dataclass(frozen=True)
class Charge:
    """Whom an outcome that is not a pass is charged to, for what, and on what evidence.

    The agent is charged with every score below 1, and with a failure of its environment from its
    first action on unless the host shows an outside cause; the environment with a failure before
    the first action, or one with an outside cause (the container killed, stopped or paused from
    outside, the node lost, the host short of memory or disk); the harness with its own exceptions
    and with a run stopped before the task ended.
    """

    party: Party
    cause: str
    evidence: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {"party": self.party, "cause": self.cause, "evidence": list(self.evidence)}

    @classmethod
    def from_json(cls, data: JsonObject) -> Charge | None:
        party = text(data, "party")
        if party not in PARTIES:
            return None
        return cls(party, text(data, "cause"), tuple(texts(data, "evidence")))


@dataclass(frozen=True)
class IntegrityCheck:
    """What the tamper checks of the evaluation found (``run/integrity.py``), or why there were none."""

    checked: bool
    findings: tuple[str, ...] = ()  #: each a path or port, and why
    left_running: tuple[str, ...] = ()  #: the commands of the processes the agent left running
    seconds: float = 0.0  #: what the checks cost
    reason: str = ""  #: why there were none

    def to_json(self) -> JsonObject:
        if not self.checked:
            return {"checked": False, "reason": self.reason}
        return {"checked": True, "findings": list(self.findings), "left_running": list(self.left_running),
                "seconds": self.seconds}

    @classmethod
    def from_json(cls, data: JsonObject) -> IntegrityCheck:
        return cls(flag(data, "checked", False), tuple(texts(data, "findings")), tuple(texts(data, "left_running")),
                   number(data, "seconds") or 0.0, text(data, "reason"))


@dataclass(frozen=True)
class Flag:
    """What a reader of a task's score should know besides it: the task is on the errata list, or
    its agent broke its environment or tampered with what the evaluation takes as given (and
    scored 0 for it)."""

    kind: str  #: "errata", "agent_broke_environment", "tampered" or "emulator"
    #: an erratum's kind and summary; the fault the agent's action caused; what it tampered with;
    #: the emulators and waived steps
    reason: str

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "reason": self.reason}

    @classmethod
    def from_json(cls, data: JsonObject) -> Flag:
        return cls(text(data, "kind"), text(data, "reason"))

    @classmethod
    def emulated(cls, emulators: list[str], waived: list[str]) -> Flag:
        """An account task that ran against ``emulators`` (their titles; ``--cloud emulate``), with
        the console steps waived for it: its score proves the harness, not an agent's skill."""
        names = ", ".join(emulators)
        reason = (f"ran against an emulator ({names}) inside its environment, not the cloud service: "
                  "this proves the harness and does not score a model")
        return cls("emulator", reason + ("; waived: " + "; ".join(waived) if waived else ""))

    @classmethod
    def errata_of(cls, task: Task) -> list[Flag]:
        erratum = task.erratum
        return [cls("errata", f"{erratum.kind}: {erratum.summary}")] if erratum is not None else []


@dataclass
class TaskResult:
    """The content of ``result.json``: what the task is, how its run went, how it scored."""

    task_id: str
    nodeid: str
    task_file: str
    app: str
    apps: list[str]
    category: str
    interface: str
    difficulty: str
    variant: str
    account: bool
    instruction: str
    agent: str
    settings: JsonObject  #: the run's settings (secrets masked)
    status: str = "running"  #: running, then passed / failed / error / skipped / interrupted
    score: float | None = None
    detail: str = ""
    evaluation: list[MetricResult] = field(default_factory=list)
    #: one entry per executed action, also in trajectory.jsonl
    steps: list[Step] = field(default_factory=list)
    timings: TaskTimings = field(default_factory=TaskTimings)
    #: tokens and cost summed over every turn of every attempt, by the agent's names for them
    usage: dict[str, float] = field(default_factory=dict)
    initial_observation: ObservationFiles = field(default_factory=ObservationFiles)
    stop_reason: str = ""
    #: the final answer the agent ended with (DONE carrying a text), for tasks that ask a question
    answer: str | None = None
    #: what the task's format knows of it beyond the schema (DABench: concepts, answer names)
    facets: JsonObject = field(default_factory=dict)
    #: earlier attempts that ended in an infrastructure fault
    attempts: list[Attempt] = field(default_factory=list)
    live_view: LiveView | None = None  #: None when no live view was asked for
    video: Video | None = None  #: None when no video was asked for
    replay_of: RecordedOutcome | None = None  #: the earlier run an agent re-executed (a replay)
    flags: list[Flag] = field(default_factory=list)  #: what a reader of the score should know
    #: the cluster node its environment ran on (``--provider swarm``); "" on this machine
    node: str = ""
    #: whom an outcome other than a pass is charged to; None for a pass, a skip, a running task
    charge: Charge | None = None
    #: the tamper checks of its evaluation; None before the evaluation
    integrity: IntegrityCheck | None = None
    #: which repeat of its task this record is; None for a run without ``--repeat``
    repeat: Repeat | None = None
    #: the image its environment ran from, by digest; "" for a task without one
    image: str = ""
    #: the task's fingerprint (what its scoring depends on), when an extension computes one
    fingerprint: str = ""

    @classmethod
    def of_task(cls, task: Task, nodeid: str, agent: str, settings: JsonObject) -> TaskResult:
        """The result of ``task`` before anything happened to it."""
        return cls(task_id=task.id, nodeid=nodeid, task_file=str(task.path), app=task.app,
                   apps=list(task.spec.related_apps), category=task.category, interface=task.interface,
                   difficulty=task.difficulty, variant=task.variant, account=task.account,
                   instruction=task.instruction, agent=agent, settings=settings, facets=dict(task.facets),
                   flags=Flag.errata_of(task))

    @property
    def finished(self) -> bool:
        return self.status in FINAL_STATUSES

    def to_json(self) -> JsonObject:
        return {
            "task_id": self.task_id, "nodeid": self.nodeid, "task_file": self.task_file, "app": self.app,
            "apps": self.apps, "category": self.category, "interface": self.interface,
            "difficulty": self.difficulty, "variant": self.variant, "account": self.account,
            "instruction": self.instruction, "agent": self.agent, "settings": self.settings,
            "status": self.status, "score": self.score, "detail": self.detail,
            "evaluation": [metric.to_json() for metric in self.evaluation],
            "steps": [step.to_json() for step in self.steps],
            "timings": self.timings.to_json(), "usage": dict(self.usage),
            "initial_observation": self.initial_observation.to_json(), "stop_reason": self.stop_reason,
            "answer": self.answer, "facets": self.facets,
            "attempts": [attempt.to_json() for attempt in self.attempts],
            "live_view": self.live_view.to_json() if self.live_view else {},
            "video": self.video.to_json() if self.video else {},
            "replay_of": self.replay_of.to_json() if self.replay_of else {},
            **({"flags": [f.to_json() for f in self.flags]} if self.flags else {}),
            **({"node": self.node} if self.node else {}),
            **({"charged_to": self.charge.to_json()} if self.charge else {}),
            **({"integrity": self.integrity.to_json()} if self.integrity else {}),
            **({"repeat": self.repeat.to_json()} if self.repeat else {}),
            **({"image": self.image} if self.image else {}),
            **({"fingerprint": self.fingerprint} if self.fingerprint else {}),
        }

    @classmethod
    def from_json(cls, data: JsonObject) -> TaskResult:
        """A result read back; keys this version does not know are ignored, missing ones get
        their defaults."""
        live_view, video, replay_of = obj(data, "live_view"), obj(data, "video"), obj(data, "replay_of")
        return cls(
            task_id=text(data, "task_id"), nodeid=text(data, "nodeid"), task_file=text(data, "task_file"),
            app=text(data, "app"), apps=texts(data, "apps"), category=text(data, "category"),
            interface=text(data, "interface"), difficulty=text(data, "difficulty"), variant=text(data, "variant"),
            account=flag(data, "account", False), instruction=text(data, "instruction"), agent=text(data, "agent"),
            settings=obj(data, "settings"), status=text(data, "status", "running"), score=number(data, "score"),
            detail=text(data, "detail"),
            evaluation=[MetricResult.from_json(metric) for metric in objects(data, "evaluation")],
            steps=[Step.from_json(step) for step in objects(data, "steps")],
            timings=TaskTimings.from_json(obj(data, "timings")), usage=numbers(obj(data, "usage")),
            initial_observation=ObservationFiles.from_json(obj(data, "initial_observation")),
            stop_reason=text(data, "stop_reason"), answer=optional_text(data, "answer"), facets=obj(data, "facets"),
            attempts=[Attempt.from_json(attempt) for attempt in objects(data, "attempts")],
            live_view=LiveView.from_json(live_view) if live_view else None,
            video=Video.from_json(video) if video else None,
            replay_of=RecordedOutcome.from_json(replay_of) if replay_of else None,
            flags=[Flag.from_json(f) for f in objects(data, "flags")],
            node=text(data, "node"),
            charge=Charge.from_json(obj(data, "charged_to")) if obj(data, "charged_to") else None,
            integrity=IntegrityCheck.from_json(obj(data, "integrity")) if obj(data, "integrity") else None,
            repeat=Repeat.from_json(obj(data, "repeat")) if obj(data, "repeat") else None,
            image=text(data, "image"), fingerprint=text(data, "fingerprint"),
        )
