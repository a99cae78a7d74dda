"""The typed content of a task's record: what ``result.json`` and ``trajectory.jsonl`` hold.

Every type is a :class:`~pytest_spider2v.run.json_values.JsonRecord`: it writes itself with
``to_json`` in exactly the layout the records have always had (its fields in order, under the keys
their aliases name, optional ones left out where they always were) and reads itself back with
``from_json``, which tolerates missing and unknown keys and values of another type: a record of
an earlier version still loads for ``--resume`` and for a replay.
:class:`~pytest_spider2v.run.records.TaskRecord` is the one writer of a record; everything else
(the episode, the evaluation, the reports) makes or reads these types.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal, cast, get_args

from pydantic import (
    BeforeValidator,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from pytest_spider2v.run.agent import Action, ExecutionInfo, RecordedOutcome
from pytest_spider2v.run.json_values import (
    OMITTED_WHEN_EMPTY,
    OMITTED_WHEN_NONE,
    Amount,
    Boolean,
    Integer,
    JsonObject,
    JsonRecord,
    Number,
    Numbers,
    Object,
    Objects,
    ObjectTuple,
    OptionalInteger,
    OptionalPart,
    OptionalText,
    PartOrEmpty,
    Records,
    Text,
    Texts,
    TextTuple,
    as_object,
    as_written,
    number_or_none,
)
from pytest_spider2v.tasks.model import Task

FINAL_STATUSES = ("passed", "failed")
#: The phases of an attempt that are timed, in the order they run.
Phase = Literal["restore", "setup", "reset", "episode", "evaluation"]
PHASES: tuple[Phase, ...] = get_args(Phase)


def _phases(value: object) -> dict[Phase, float]:
    """The phases timed in an object, in the order they ran."""
    data = as_object(value)
    return {phase: seconds for phase in PHASES if (seconds := number_or_none(data.get(phase))) is not None}


#: The seconds of each phase, read in the order the phases run (keys that are no phase left out).
Phases = Annotated[dict[Phase, float], PlainValidator(_phases), PlainSerializer(as_written),
                   Field(default_factory=dict)]


@dataclass(frozen=True)
class ObservationFiles(JsonRecord):
    """The files of one observation in the record's folder; none for an environment without a screen."""

    screenshot: Annotated[OptionalText, OMITTED_WHEN_NONE] = None
    accessibility_tree: Annotated[OptionalText, OMITTED_WHEN_NONE] = None


@dataclass(frozen=True)
class StepTimings(JsonRecord):
    """Seconds one action took to run, and to observe the screen after it (per part observed)."""

    execute: Amount
    observe: Numbers = field(default_factory=dict)


def _action(value: object) -> Action | None:
    return value if isinstance(value, (str, dict)) else None


if TYPE_CHECKING:
    _ExecutionInfo = ExecutionInfo
else:  # pydantic reads it with _execution_info below, not as a TypedDict (which it reads only from typing_extensions)
    _ExecutionInfo = dict


def _execution_info(value: object) -> ExecutionInfo:
    data = as_object(value)
    info = ExecutionInfo()
    for key in ("status", "output", "error"):
        if isinstance(text := data.get(key), str):
            info[key] = text
    if (returncode := number_or_none(data.get("returncode"))) is not None:
        info["returncode"] = int(returncode)
    if isinstance(message := data.get("message"), str):
        info["message"] = message
    return info


@dataclass(frozen=True)
class Step(JsonRecord):
    """One executed action of the episode (or a reply that held none), a line of ``trajectory.jsonl``.

    The turn's reply, usage, prompt and view are kept with its first action; its other actions
    carry empty ones, so summing over the steps counts each turn once. The fields are in the
    order a line holds them.
    """

    index: Integer  #: the action's number in the episode (a reply without one repeats the last)
    turn: OptionalInteger  #: the agent turn it belongs to; None in records from before turns were numbered
    response: Text  #: the agent's raw reply
    #: None when the reply held no valid action
    action: Annotated[Action | None, PlainValidator(_action), PlainSerializer(as_written), Field(default=None)]
    kind: Text  #: "code", "WAIT", "FAIL", "DONE", or "none" for a reply without an action
    info: Annotated[_ExecutionInfo, PlainValidator(_execution_info), PlainSerializer(dict),
                    Field(default_factory=ExecutionInfo)]
    _: KW_ONLY
    duration: Amount  #: seconds from running the action to having observed its effect
    #: None for a reply without an action
    timings: Annotated[StepTimings | None, BeforeValidator(as_object), OMITTED_WHEN_NONE] = None
    think: Amount  #: seconds the agent took to answer
    #: the observation after it; None for a reply without an action
    observation: Annotated[ObservationFiles | None, BeforeValidator(as_object), OMITTED_WHEN_NONE] = None
    usage: Object = field(default_factory=dict)  #: the turn's tokens and cost, as the agent counts them
    prompt: Objects = field(default_factory=list)  #: the messages the model was sent
    view: OptionalText = None  #: the image the model was shown, when it was not the raw screenshot
    answer: Annotated[OptionalText, OMITTED_WHEN_NONE] = None  #: the final answer a DONE carried


@dataclass(frozen=True)
class MetricResult(JsonRecord):
    """One metric's verdict in the evaluation."""

    func: Text  #: the metric's name
    score: Amount
    detail: Text  #: why: what the metric logged, or "matched" / "did not match"
    #: the parts it judged, for a metric that returns them (a closed-form question's sub-answers:
    #: name, expected, given, correct)
    parts: Annotated[ObjectTuple, OMITTED_WHEN_EMPTY] = ()
    #: what the metric (or a getter, a file not found) raised instead of judging, "Type: message":
    #: scored 0 by the original's rule, yet no verdict; empty when the metric judged
    raised: Annotated[Text, OMITTED_WHEN_EMPTY] = ""


@dataclass
class TaskTimings(JsonRecord):
    """When the task started and finished (epoch seconds), the seconds of each phase of its
    current attempt, and its total from start to finish; the phases are written beside the rest."""

    started: Annotated[Number, OMITTED_WHEN_NONE] = None
    phases: Phases = field(default_factory=dict)
    finished: Annotated[Number, OMITTED_WHEN_NONE] = None
    total: Annotated[Number, OMITTED_WHEN_NONE] = None

    def seconds(self, phase: Phase) -> float:
        return self.phases.get(phase, 0.0)

    @model_validator(mode="before")
    @classmethod
    def _read_phases_beside(cls, data: object) -> object:
        return {**data, "phases": data} if isinstance(data, dict) else {}

    @model_serializer(mode="wrap")
    def _write_phases_beside(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        written: JsonObject = handler(self)
        started = {"started": written.pop("started")} if "started" in written else {}
        return {**started, **cast(JsonObject, written.pop("phases")), **written}


@dataclass(frozen=True)
class LiveView(JsonRecord):
    """The desktop served to a browser while the task ran (``--live``, or an agent working
    through it), or why it could not be (``error``, then written alone)."""

    url: Text = ""
    view_only: Boolean = True
    page: Annotated[Text, OMITTED_WHEN_EMPTY] = ""  #: the agent's own page beside the view (a person's DONE/FAIL page)
    error: Annotated[Text, OMITTED_WHEN_EMPTY] = ""

    @model_serializer(mode="wrap")
    def _error_alone(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return {"error": self.error} if self.error else handler(self)


@dataclass(frozen=True)
class Video(JsonRecord):
    """The episode's video (``--record-video``): its file in the record and its length, with
    what the recorder complained of (``problem``); or why there is none (``error``, then written alone)."""

    file: Text = ""
    seconds: Number = None
    problem: Annotated[Text, OMITTED_WHEN_EMPTY] = ""
    error: Annotated[Text, OMITTED_WHEN_EMPTY] = ""

    @model_serializer(mode="wrap")
    def _error_alone(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return {"error": self.error} if self.error else handler(self)


@dataclass(frozen=True)
class Repeat(JsonRecord):
    """Which of the run's repeats of its task a record is (``--repeat K``): each runs on a fresh
    environment and keeps a record of its own."""

    index: Integer  #: 1 for the first
    of: Integer  #: K


@dataclass(frozen=True)
class Attempt(JsonRecord):
    """An earlier attempt at the task that an infrastructure fault ended (``--retries``)."""

    number: Annotated[Integer, Field(alias="attempt")]  #: 1 for the first attempt
    detail: Text  #: the fault
    folder: Text  #: the record's subfolder its files moved to
    step_count: Annotated[Integer, Field(alias="steps")]  #: the steps it had taken
    timings: Phases = field(default_factory=dict)  #: seconds of the phases it got through
    video: OptionalPart[Video] = None


#: Whom an unsuccessful outcome is charged to.
Party = Literal["agent", "environment", "harness"]
PARTIES: tuple[Party, ...] = get_args(Party)


@dataclass(frozen=True)
class Charge(JsonRecord):
    """Whom an outcome that is not a pass is charged to, for what, and on what evidence.

    The agent is charged with every score below 1, and with a failure of its environment from its
    first action on unless the host shows an outside cause; the environment with a failure before
    the first action, or one with an outside cause (the container killed, stopped or paused from
    outside, the node lost, the host short of memory or disk); the harness with its own exceptions
    and with a run stopped before the task ended. A record charging a party this version does not
    know holds no charge.
    """

    party: Party
    cause: Text
    evidence: TextTuple = ()


@dataclass(frozen=True)
class IntegrityCheck(JsonRecord):
    """What the tamper checks of the evaluation found (``run/integrity.py``), or why there were none
    (``reason``, written with ``checked`` alone)."""

    checked: Annotated[Boolean, Field(default=False)]
    findings: TextTuple = ()  #: each a path or port, and why
    left_running: TextTuple = ()  #: the commands of the processes the agent left running
    seconds: Amount = 0.0  #: what the checks cost
    reason: Annotated[Text, Field(exclude=True)] = ""  #: why there were none

    @model_serializer(mode="wrap")
    def _reason_alone(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return handler(self) if self.checked else {"checked": False, "reason": self.reason}


@dataclass(frozen=True)
class Flag(JsonRecord):
    """What a reader of a task's score should know besides it: the task is on the errata list, or
    its agent broke its environment or tampered with what the evaluation takes as given (and
    scored 0 for it)."""

    kind: Text  #: "errata", "agent_broke_environment", "tampered" or "emulator"
    #: an erratum's kind and summary; the fault the agent's action caused; what it tampered with;
    #: the emulators and waived steps
    reason: Text

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
class TaskResult(JsonRecord):
    """The content of ``result.json``: what the task is, how its run went, how it scored."""

    task_id: Text
    nodeid: Text
    task_file: Text
    app: Text
    apps: Texts
    category: Text
    interface: Text
    difficulty: Text
    variant: Text
    account: Annotated[Boolean, Field(default=False)]
    instruction: Text
    agent: Text
    settings: Object  #: the run's settings (secrets masked)
    status: Text = "running"  #: running, then passed / failed / error / skipped / interrupted
    score: Number = None
    detail: Text = ""
    evaluation: Records[MetricResult] = field(default_factory=list)
    #: one entry per executed action, also in trajectory.jsonl
    steps: Records[Step] = field(default_factory=list)
    timings: TaskTimings = field(default_factory=TaskTimings)
    #: tokens and cost summed over every turn of every attempt, by the agent's names for them
    usage: Numbers = field(default_factory=dict)
    initial_observation: Annotated[ObservationFiles, BeforeValidator(as_object)] = field(
        default_factory=ObservationFiles)
    stop_reason: Text = ""
    #: the final answer the agent ended with (DONE carrying a text), for tasks that ask a question
    answer: OptionalText = None
    #: what the task's format knows of it beyond the schema (DABench: concepts, answer names)
    facets: Object = field(default_factory=dict)
    #: earlier attempts that ended in an infrastructure fault
    attempts: Records[Attempt] = field(default_factory=list)
    live_view: PartOrEmpty[LiveView] = None  #: None when no live view was asked for
    video: PartOrEmpty[Video] = None  #: None when no video was asked for
    replay_of: PartOrEmpty[RecordedOutcome] = None  #: the earlier run an agent re-executed (a replay)
    #: what a reader of the score should know
    flags: Annotated[Records[Flag], OMITTED_WHEN_EMPTY] = field(default_factory=list)
    #: the cluster node its environment ran on (``--provider swarm``); "" on this machine
    node: Annotated[Text, OMITTED_WHEN_EMPTY] = ""
    #: whom an outcome other than a pass is charged to; None for a pass, a skip, a running task
    charge: Annotated[OptionalPart[Charge], Field(alias="charged_to")] = None
    #: the tamper checks of its evaluation; None before the evaluation
    integrity: OptionalPart[IntegrityCheck] = None
    #: which repeat of its task this record is; None for a run without ``--repeat``
    repeat: OptionalPart[Repeat] = None
    #: the image its environment ran from, by digest; "" for a task without one
    image: Annotated[Text, OMITTED_WHEN_EMPTY] = ""
    #: the task's fingerprint (what its scoring depends on), when an extension computes one
    fingerprint: Annotated[Text, OMITTED_WHEN_EMPTY] = ""

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
