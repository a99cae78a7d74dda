"""One task as the run's summary counts it: a few figures out of its record.

A :class:`TaskSummary` is made on the worker that ran the task and travels to the xdist controller
as plain JSON in ``report.user_properties`` (which also lands in ``--junitxml``); the controller
reads it back with :meth:`TaskSummary.from_json` before summing up the run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, TypeGuard

from pydantic import PlainValidator, SerializerFunctionWrapHandler, model_serializer, model_validator

from pytest_spider2v.reports.timing import time_parts
from pytest_spider2v.run.json_values import (
    OMITTED_WHEN_EMPTY,
    Boolean,
    JsonObject,
    JsonRecord,
    Number,
    Numbers,
    Object,
    Objects,
    OptionalPart,
    Text,
    Texts,
    as_object,
    number_or_none,
)
from pytest_spider2v.run.results import MetricResult, TaskResult

#: how much of a task's detail (why it failed, errored or was skipped) travels with its summary
DETAIL_CHARS = 300
#: the groupings the summary shows, in order; a task counts for each related app
#: ``node`` groups only the tasks that ran on a cluster's node: a run on this machine has none.
GROUPINGS = ("app", "category", "difficulty", "variant", "interface", "node")
#: what a web step's verdict holds (a part of the ``mind2web_steps`` metric)
WEB_STEP_KEYS = ("valid", "element", "op_f1", "success")


@dataclass(frozen=True)
class RecordedEnding(JsonRecord):
    """How the run a replay re-executed had ended the task."""

    run: Text  #: that run's folder
    status: Text
    score: Number

    @property
    def outcome(self) -> str:
        return outcome_text(self.status, self.score)


def _whole(value: object) -> int | None:
    found = number_or_none(value)
    return None if found is None else int(found)


def _verdicts(value: object) -> dict[str, bool]:
    return {name: bool(verdict) for name, verdict in as_object(value).items()}


def _ordinal(value: object) -> int:
    """A repeat's number or count, 1 when there is none."""
    return int(number_or_none(value) or 1)


@dataclass(frozen=True)
class TaskSummary(JsonRecord):
    """What the summary needs of one task: its groups, outcome, spending and time.

    Its fields are in the order its JSON holds them; the optional ones are left out when empty, and
    ``repeat`` and ``repeats`` are written together as ``{"repeat": {"index", "of"}}`` for a repeat.
    """

    nodeid: Text
    task_id: Text = ""
    app: Text = ""
    apps: Texts = field(default_factory=list)  #: the apps it counts for (its related apps)
    category: Text = ""
    difficulty: Text = ""
    interface: Text = ""
    variant: Text = ""
    status: Text = "error"
    score: Number = None
    tokens: Annotated[int | None, PlainValidator(_whole)] = None
    cost: Number = None
    seconds: Number = None  #: wall time from its start to its end
    detail: Text = ""  #: the first line of why it ended as it did
    #: the faults of the attempts an infrastructure fault ended (``--retries``), in order
    retried: Texts = field(default_factory=list)
    #: a task format's facets (DABench: concepts, answer names), for tasks that have them
    facets: Annotated[Object, OMITTED_WHEN_EMPTY] = field(default_factory=dict)
    #: each sub-answer's verdict, for a closed-form question
    sub_answers: Annotated[dict[str, bool], PlainValidator(_verdicts), OMITTED_WHEN_EMPTY] = field(
        default_factory=dict)
    #: how the replayed run ended the task, for a replay
    recorded: OptionalPart[RecordedEnding] = None
    #: the task's erratum (its kind and summary) when it is on the errata list, else ""
    errata: Annotated[Text, OMITTED_WHEN_EMPTY] = ""
    #: it ran against emulators (``--cloud emulate``): its score proves the harness, not an agent
    emulated: Annotated[Boolean, OMITTED_WHEN_EMPTY] = False
    #: the cluster node its environment ran on; "" on this machine
    node: Annotated[Text, OMITTED_WHEN_EMPTY] = ""
    #: whom an outcome other than a pass is charged to: "agent", "environment" or "harness"
    charged_to: Annotated[Text, OMITTED_WHEN_EMPTY] = ""
    #: it scored 0 for tampering with what its evaluation takes as given
    tampered: Annotated[Boolean, OMITTED_WHEN_EMPTY] = False
    #: each step's verdicts, for a Multimodal-Mind2Web task (``valid``, ``element``, ``op_f1``, ``success``)
    web_steps: Annotated[Objects, OMITTED_WHEN_EMPTY] = field(default_factory=list)
    #: which of its task's ``--repeat`` runs it is (1 of 1 without ``--repeat``)
    repeat: Annotated[int, PlainValidator(_ordinal)] = 1
    repeats: Annotated[int, PlainValidator(_ordinal)] = 1
    image: Annotated[Text, OMITTED_WHEN_EMPTY] = ""  #: the image its environment ran from, by digest
    fingerprint: Annotated[Text, OMITTED_WHEN_EMPTY] = ""  #: the task's fingerprint, when one was computed
    #: where its wall time went, in seconds per part of :data:`~.timing.TIME_PARTS`
    time_parts: Annotated[Numbers, OMITTED_WHEN_EMPTY] = field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _read_repeat(cls, data: object) -> object:
        if not isinstance(data, dict):
            return {}
        repeat = as_object(data.get("repeat"))
        return {**data, "repeat": repeat.get("index"), "repeats": repeat.get("of")}

    @model_serializer(mode="wrap")
    def _write_repeat(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        written: JsonObject = handler(self)
        repeat = {"index": self.repeat, "of": self.repeats}
        return {key: repeat if key == "repeat" else value for key, value in written.items()
                if key != "repeats" and (key != "repeat" or self.repeats > 1)}

    @classmethod
    def of(cls, result: TaskResult) -> TaskSummary:
        """The summary of one task's record."""
        tokens, cost = usage_totals(result)
        return cls(
            nodeid=result.nodeid, task_id=result.task_id, app=result.app, apps=list(result.apps or [result.app]),
            category=result.category, difficulty=result.difficulty, interface=result.interface,
            variant=result.variant, status=result.status,
            score=float(result.score) if result.score is not None else None, tokens=tokens, cost=cost,
            seconds=round(float(result.timings.total), 3) if result.timings.total is not None else None,
            detail=_first_line(result.detail)[:DETAIL_CHARS],
            retried=[_first_line(attempt.detail)[:DETAIL_CHARS] for attempt in result.attempts],
            facets=dict(result.facets), sub_answers=sub_answer_verdicts(result.evaluation),
            recorded=(RecordedEnding(result.replay_of.run, result.replay_of.status, result.replay_of.score)
                      if result.replay_of else None),
            errata=next((flag.reason for flag in result.flags if flag.kind == "errata"), ""),
            emulated=any(flag.kind == "emulator" for flag in result.flags),
            node=result.node, charged_to=result.charge.party if result.charge else "",
            tampered=any(flag.kind == "tampered" for flag in result.flags),
            web_steps=web_step_verdicts(result.evaluation),
            repeat=result.repeat.index if result.repeat else 1, repeats=result.repeat.of if result.repeat else 1,
            image=result.image, fingerprint=result.fingerprint, time_parts=time_parts(result),
        )

    @property
    def task_nodeid(self) -> str:
        """The nodeid of the task this is a repeat of: its own, less the ``-2-3`` that ``--repeat`` adds."""
        suffix = f"{self.repeat}-{self.repeats}]"
        if self.repeats == 1 or not self.nodeid.endswith(suffix):
            return self.nodeid
        head = self.nodeid[:-len(suffix)]
        return head[:-1] if head.endswith("[") else f"{head[:-1]}]"

    @property
    def is_scored(self) -> bool:
        return self.status in ("passed", "failed") and self.score is not None

    @property
    def attempted(self) -> bool:
        """It ran (or began to): everything but a skip, an error counted as a score of 0."""
        return self.status != "skipped"

    @property
    def outcome(self) -> str:
        """Its outcome in a word: its score when it has one, else its status."""
        return outcome_text(self.status, self.score)

    @property
    def label(self) -> str:
        return f"{self.app}/{self.task_id} [{self.variant}]"

    @property
    def score_text(self) -> str:
        """The score, or the status when the task has none (error, skipped)."""
        return self.status if self.score is None else f"{self.score:.2f}"

    def groups(self, grouping: str) -> list[str]:
        """The groups of ``grouping`` (one of :data:`GROUPINGS`) the task counts in: one for
        each related app, else the one of its property of that name."""
        if grouping == "node":
            return [self.node] if self.node else []
        single = {"category": self.category, "difficulty": self.difficulty, "variant": self.variant,
                  "interface": self.interface}
        return [value or "?" for value in (self.apps if grouping == "app" else [single[grouping]])]


def outcome_text(status: str, score: float | None) -> str:
    """An outcome in a word: the score when it has one, else the status."""
    if status in ("passed", "failed") and score is not None:
        return f"{score:.2f}"
    return status or "error"


def usage_totals(result: TaskResult) -> tuple[int | None, float | None]:
    """Tokens and cost of a task: the record's totals, else the sum over its steps."""
    usages: list[Mapping[str, object]] = [result.usage] if result.usage else [step.usage for step in result.steps]
    tokens = [t for t in (_tokens(u) for u in usages) if t is not None]
    costs = [float(value) for u in usages for key in ("cost", "cost_usd") if _is_number(value := u.get(key))]
    return (sum(tokens) if tokens else None, round(sum(costs), 6) if costs else None)


def _tokens(usage: Mapping[str, object]) -> int | None:
    for key in ("total_tokens", "tokens"):
        if _is_number(value := usage.get(key)):
            return int(value)
    for pair in (("input_tokens", "output_tokens"), ("prompt_tokens", "completion_tokens")):
        parts = [value for key in pair if _is_number(value := usage.get(key))]
        if parts:
            return int(sum(parts))
    return None


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float))


def sub_answer_verdicts(evaluation: Iterable[MetricResult]) -> dict[str, bool]:
    """Sub-answer name -> right, from the parts of a record's metric results."""
    return {str(part["name"]): bool(part["correct"]) for metric in evaluation for part in metric.parts
            if "name" in part and "correct" in part}


def web_step_verdicts(evaluation: Iterable[MetricResult]) -> list[JsonObject]:
    """Each web step's verdicts, from the parts of a record's metric results that carry them."""
    return [{key: part[key] for key in WEB_STEP_KEYS} for metric in evaluation for part in metric.parts
            if all(key in part for key in WEB_STEP_KEYS)]


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
