"""Who answers a Mind2Web step: the agents' side of the card's protocol.

A desktop agent acts on an environment; a Mind2Web step asks for an answer to two rounds of chat
messages instead, so the same ``--agent`` names are served here by answerers, registered in
:data:`web_agents` like any agent (a user adds one without touching this package):

* ``oracle``: the target, in the final form (the positive's letter, the operation and its value);
* ``noop``: no answer at all (every step wrong);
* ``oracle-near-miss``: the oracle with its last valid step's element wrong (``--validate``'s near
  miss: right everywhere but once, it must score 0);
* ``replay:<run folder>``: the final answers an earlier run recorded, scored again with no model;
* the model agents (``gpt-4o`` and any OpenAI model, ``openai:<model>`` on an OpenAI-compatible
  server with ``--llm-base-url``, ``claude-*`` / ``anthropic:<model>``): the card's two rounds
  through the vendors' SDKs (:mod:`pytest_spider2v.agents.llm.backends`): ``prompt_0``, then
  ``prompt_0``, the first answer as the assistant's turn (``"\\n\\n" + answer``) and ``prompt_1``;
  the second answer is the step's. The card's parameters: ``max_tokens`` 500 and temperature 0
  (sent to Anthropic models only when ``--temperature`` is given, as for the desktop agents:
  current Claude models refuse sampling parameters). Keys, base URL, retries, timeouts and prices
  are the desktop agents' options.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.agents.llm import agent as llm
from pytest_spider2v.agents.replay import is_replay, recorded_episode, run_folder
from pytest_spider2v.formats.mind2web.answers import final_answer
from pytest_spider2v.formats.mind2web.steps import WebStep, WebTask
from pytest_spider2v.registry import Registry, Unavailable, UnknownName
from pytest_spider2v.run.agent import AgentSettings, RecordedOutcome
from pytest_spider2v.tasks.model import Task

if TYPE_CHECKING:
    from pytest_spider2v.agents.llm.backends import Backend

#: The card's sampling: what its baseline sends with every request.
CARD_MAX_TOKENS = "500"
CARD_TEMPERATURE = "0"
#: The assistant's turn in round 2 when the first reply was empty.
EMPTY_REPLY = "(no reply)"


@dataclass(frozen=True)
class StepAnswer:
    """One step's answer: the final text (what is parsed and scored), and how it came about."""

    text: str
    rounds: tuple[str, ...] = ()  #: each round's reply, the last being ``text``
    prompt: list[dict[str, Any]] = field(default_factory=list)  #: the messages sent (images as ``<image WxH>``)
    usage: dict[str, Any] = field(default_factory=dict)  #: tokens and cost, as the desktop agents count them


class StepAnswerer(ABC):
    """Answers the steps of one task after another; :meth:`reset` comes before each task."""

    #: the earlier run whose answers it gives again (a replay), set by :meth:`reset`
    replays: RecordedOutcome | None = None

    @abstractmethod
    def reset(self, task: Task, web_task: WebTask) -> None:
        """Get ready for ``task``'s steps."""

    @abstractmethod
    def answer(self, web_task: WebTask, step: WebStep) -> StepAnswer:
        """The answer to one step."""


#: ``factory(settings) -> StepAnswerer``: what ``--agent NAME`` answers Mind2Web steps with.
WebAgentFactory = Callable[[AgentSettings], StepAnswerer]
#: The web agents, by ``--agent`` name; a ``matches`` registration meta lets one factory serve a
#: family of names (every OpenAI model).
web_agents: Registry[WebAgentFactory] = Registry("Mind2Web agent")


def answerer_factory(name: str) -> WebAgentFactory:
    """The factory for ``--agent NAME``: an exact registration, or one whose ``matches`` accepts it;
    :class:`~pytest_spider2v.registry.UnknownName` for an agent that cannot answer Mind2Web steps."""
    if name in web_agents:
        return web_agents.get(name)
    for candidate in web_agents:
        if web_agents.entry(candidate).meta.get("matches", lambda _n: False)(name):
            return web_agents.get(candidate)
    raise UnknownName(f"agent '{name}' cannot answer Mind2Web steps (those that can: {', '.join(web_agents)})")


class OracleAnswerer(StepAnswerer):
    def reset(self, task: Task, web_task: WebTask) -> None:
        pass

    def answer(self, web_task: WebTask, step: WebStep) -> StepAnswer:
        chosen = step.targets[0] if step.targets else None
        text = final_answer(chosen, len(step.candidates), step.op, step.value)
        return StepAnswer(text, (text,))


class NearMissAnswerer(OracleAnswerer):
    """The oracle, but on the task's last valid step the candidate after the target is chosen:
    ``--validate``'s near miss, which must score 0 (a task whose every step is right but one)."""

    def reset(self, task: Task, web_task: WebTask) -> None:
        self._missed = max((step.step for step in web_task.steps if step.valid), default=None)

    def answer(self, web_task: WebTask, step: WebStep) -> StepAnswer:
        if step.step != self._missed or not step.targets:
            return super().answer(web_task, step)
        wrong = next(i for i in range(len(step.candidates) + 1) if i not in step.targets)
        text = final_answer(None if wrong == len(step.candidates) else wrong, len(step.candidates), step.op, step.value)
        return StepAnswer(text, (text,))


class NoopAnswerer(StepAnswerer):
    def reset(self, task: Task, web_task: WebTask) -> None:
        pass

    def answer(self, web_task: WebTask, step: WebStep) -> StepAnswer:
        return StepAnswer("", ("",))


class ReplayAnswerer(StepAnswerer):
    """The final answers an earlier run recorded, step by step (by the step's index)."""

    def __init__(self, name: str, run_dir: Path) -> None:
        self.name, self.run_dir = name, run_dir
        self._answers: dict[int, str] = {}

    def reset(self, task: Task, web_task: WebTask) -> None:
        recorded = recorded_episode(self.name, self.run_dir, task)
        self._answers = {step.index: step.response for step in recorded.steps}
        missing = [step.step for step in web_task.steps if step.step not in self._answers]
        if missing:
            raise Unavailable("agent", self.name, f"the record of {task.key} has no answer to step(s) "
                                                  f"{', '.join(map(str, missing))}")
        self.replays = RecordedOutcome(str(self.run_dir), recorded.agent, recorded.status, recorded.score)

    def answer(self, web_task: WebTask, step: WebStep) -> StepAnswer:
        text = self._answers[step.step]
        return StepAnswer(text, (text,))


class ModelAnswerer(StepAnswerer):
    """The card's two rounds through a model backend."""

    def __init__(self, backend: Backend, price: tuple[float, float] | None, retries: int, backoff: float) -> None:
        self.backend, self.price, self.retries, self.backoff = backend, price, retries, backoff

    def reset(self, task: Task, web_task: WebTask) -> None:
        pass

    def answer(self, web_task: WebTask, step: WebStep) -> StepAnswer:
        from pytest_spider2v.agents.llm import pricing
        from pytest_spider2v.agents.llm.backends import call_with_retries
        from pytest_spider2v.agents.llm.prompting import redact

        first_messages = list(step.prompt_0)
        first = call_with_retries(lambda: self.backend.complete(first_messages), self.retries, self.backoff)
        # Anthropic refuses a turn of whitespace only: an empty first reply is said in words
        reply = first.text if first.text.strip() else EMPTY_REPLY
        second_messages = [*first_messages, {"role": "assistant", "content": [{"type": "text", "text": f"\n\n{reply}"}]},
                           *step.prompt_1]
        second = call_with_retries(lambda: self.backend.complete(second_messages), self.retries, self.backoff)
        prompt_tokens = first.prompt_tokens + second.prompt_tokens
        completion_tokens = first.completion_tokens + second.completion_tokens
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "cost_usd": pricing.cost_usd(self.price, prompt_tokens, completion_tokens),
                 "attempts": first.attempts + second.attempts}
        return StepAnswer(second.text, (first.text, second.text), redact(second_messages), usage)


@web_agents.register("oracle")
def make_oracle(settings: AgentSettings) -> StepAnswerer:
    return OracleAnswerer()


@web_agents.register("oracle-near-miss")
def make_near_miss(settings: AgentSettings) -> StepAnswerer:
    return NearMissAnswerer()


@web_agents.register("noop")
def make_noop(settings: AgentSettings) -> StepAnswerer:
    return NoopAnswerer()


@web_agents.register("replay:<run folder>", matches=is_replay)
def make_replay(settings: AgentSettings) -> StepAnswerer:
    run_dir = run_folder(settings.name)
    if not run_dir.is_dir():
        raise Unavailable("agent", settings.name, f"there is no run folder {run_dir}")
    return ReplayAnswerer(settings.name, run_dir)


def card_options(vendor: llm.ModelVendor, options: dict[str, str]) -> dict[str, str]:
    """A model answerer's options: the card's sampling, under what the run gave."""
    card = {"max_tokens": CARD_MAX_TOKENS, **({"temperature": CARD_TEMPERATURE} if vendor is llm.OPENAI else {})}
    return {**card, **options}


def model_vendor(name: str) -> llm.ModelVendor | None:
    """The vendor of a model-driven ``--agent`` name; None for any other answerer."""
    return llm.OPENAI if llm.is_openai_model(name) else llm.ANTHROPIC if llm.is_anthropic_model(name) else None


def _model_answerer(vendor: llm.ModelVendor, settings: AgentSettings) -> StepAnswerer:
    from pytest_spider2v.agents.llm import pricing

    parsed = llm.LLMSettings.parse(vendor.model_of(settings.name), card_options(vendor, dict(settings.options)))
    backend = llm.make_backend(vendor, parsed, settings.name)
    return ModelAnswerer(backend, parsed.price or pricing.price_of(parsed.model), parsed.retries, parsed.backoff)


@web_agents.register("openai", matches=llm.is_openai_model)
def make_openai(settings: AgentSettings) -> StepAnswerer:
    return _model_answerer(llm.OPENAI, settings)


@web_agents.register("anthropic", matches=llm.is_anthropic_model)
def make_anthropic(settings: AgentSettings) -> StepAnswerer:
    return _model_answerer(llm.ANTHROPIC, settings)

