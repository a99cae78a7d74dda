"""The paper's baseline agent, driven by a hosted or local model (reference §6).

``--agent gpt-4o`` (any OpenAI model name, or ``openai:<model>`` for an OpenAI-compatible server)
talks through the ``openai`` SDK; ``--agent claude-...`` (or ``anthropic:<model>``) through the
``anthropic`` SDK. Keys come from ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``; a base URL
(``--llm-base-url``, or the SDKs' ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL``) points at any
compatible server, which then needs no key. Every other setting arrives in
``AgentSettings.options`` (see :class:`LLMSettings`).

Each turn: shape the observation (screenshot, accessibility table, Set-of-Marks), assemble the
conversation (:mod:`agents.prompting`), call the model (:mod:`agents.backends`), parse the reply
(:mod:`agents.parsing`) and make the actions executable:

* SoM: ``index_N`` names are resolved by prepending their coordinates to the code.
* Scaled screenshots (``screenshot_max_width``): for computer_13 every coordinate the model sees
  (image and table) is in image pixels and its actions' ``x``/``y`` are mapped back to the screen
  with :func:`~pytest_spider2v.run.actions.map_point`. pyautogui code runs verbatim and cannot be
  rewritten safely, so there the table and the marks stay in screen pixels and the system prompt
  states the scale factor for coordinates read off the image.

A reply without a usable action is not an error: the reason is told to the model next turn.

In an environment without a screen (a DABench question) there is nothing to look at: the agent
works in the paper's data-analysis loop instead, running Python and reading its output until it
gives the final answer (:mod:`agents.code_mode`).
"""

from __future__ import annotations

import dataclasses
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.agents.llm import pricing, rag
from pytest_spider2v.agents.llm.code_mode import Scratchpad, trimmed
from pytest_spider2v.agents.llm.observation import Node, linearize, prune
from pytest_spider2v.agents.llm.parsing import parse_computer13, parse_pyautogui
from pytest_spider2v.agents.llm.prompting import (
    ACTION_SPACES,
    OBSERVATIONS,
    Message,
    PastTurn,
    Prompts,
    assemble,
    png_size,
    redact,
)
from pytest_spider2v.agents.llm.som import draw_marks, resolve_indices, scale_png
from pytest_spider2v.registry import Unavailable, agents
from pytest_spider2v.run.actions import ActionError, map_point
from pytest_spider2v.run.agent import Action, Agent, AgentSettings, Observation, Turn, action_kind
from pytest_spider2v.tasks.model import Task

if TYPE_CHECKING:
    from pytest_spider2v.agents.llm.backends import Backend, Completion

log = logging.getLogger(__name__)

OPENAI_PREFIXES = ("gpt-", "gpt4", "chatgpt-", "o1", "o3", "o4", "ft:gpt-")
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off", "")


@dataclass(frozen=True)
class ModelVendor:
    """How one vendor's models are reached: its SDK backend and the environment variables it
    reads. (Not a :class:`pytest_spider2v.environments.provider.Provider`, which provides environments.)

    The backend is named, not imported: :mod:`agents.backends` imports the vendors' SDKs, which
    take seconds, so only a run that makes a model-driven agent pays for them.
    """

    name: str
    backend: str  #: class name in :mod:`agents.backends`
    key_env: str
    base_url_env: str
    key_hint: str

    def model_of(self, agent_name: str) -> str | None:
        """``openai:qwen2-vl`` -> ``qwen2-vl``; a bare model name is itself; the family name alone
        names no model."""
        if agent_name == self.name:
            return None
        return agent_name.split(":", 1)[1] if agent_name.startswith(f"{self.name}:") else agent_name


OPENAI = ModelVendor("openai", "OpenAIBackend", "OPENAI_API_KEY", "OPENAI_BASE_URL", "set OPENAI_API_KEY or --llm-base-url")
ANTHROPIC = ModelVendor("anthropic", "AnthropicBackend", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
                     "set ANTHROPIC_API_KEY or --llm-base-url")


@dataclass(frozen=True)
class LLMSettings:
    """The agent's options, parsed from ``AgentSettings.options`` (strings from the command line).

    Defaults are the paper's run script's (reference §5.5), except the observation for
    computer_13: the paper's default ``som`` is forbidden there, so it becomes
    ``screenshot_a11y_tree``.
    """

    model: str
    base_url: str | None = None
    observation: str = "som"
    action_space: str = "pyautogui"
    temperature: float = 0.5
    top_p: float = 0.9
    #: the sampling options given explicitly (Anthropic models get only those)
    explicit_sampling: frozenset[str] = frozenset()
    max_tokens: int = 1500
    history: int = 3  #: past turns shown (the paper's max_trajectory_length)
    a11y_max_tokens: int = 5000
    execution_feedback: bool = False
    rag_docs: str | None = None  #: a documentation folder, or "task" for an original task's retrieval file
    rag_topk: int = 4
    password: str = "password"
    screenshot_max_width: int | None = None
    retries: int = 10  #: as the paper's max_tries
    backoff: float = 1.0  #: first retry delay, seconds (doubles each time, with jitter)
    timeout: float = 120.0  #: seconds per request
    price: pricing.Price | None = None  #: USD per million tokens; default from pricing.yaml

    @classmethod
    def parse(cls, model: str | None, options: dict[str, Any]) -> LLMSettings:
        known = {f.name for f in dataclasses.fields(cls)} - {"explicit_sampling"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown agent option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        model = str(options.get("model") or model or "")
        if not model:
            raise ValueError("no model given: use --agent <model name> or --agent-option model=NAME")
        action_space = str(options.get("action_space", "pyautogui"))
        default_observation = "som" if action_space == "pyautogui" else "screenshot_a11y_tree"
        try:
            settings = cls(
                model=model,
                base_url=options.get("base_url") or None,
                observation=str(options.get("observation", default_observation)),
                action_space=action_space,
                temperature=float(options.get("temperature", 0.5)),
                top_p=float(options.get("top_p", 0.9)),
                explicit_sampling=frozenset({"temperature", "top_p"} & set(options)),
                max_tokens=int(options.get("max_tokens", 1500)),
                history=int(options.get("history", 3)),
                a11y_max_tokens=int(options.get("a11y_max_tokens", 5000)),
                execution_feedback=_flag(options.get("execution_feedback", False)),
                rag_docs=options.get("rag_docs") or None,
                rag_topk=int(options.get("rag_topk", 4)),
                password=str(options.get("password", "password")),
                screenshot_max_width=int(options["screenshot_max_width"]) if options.get("screenshot_max_width") else None,
                retries=int(options.get("retries", 10)),
                backoff=float(options.get("backoff", 1.0)),
                timeout=float(options.get("timeout", 120.0)),
                price=pricing.parse_price(str(options["price"])) if options.get("price") else None,
            )
        except ValueError as exc:
            raise ValueError(f"bad agent option: {exc}") from None
        settings.check()
        return settings

    def check(self) -> None:
        if self.observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {self.observation!r}")
        if self.action_space not in ACTION_SPACES:
            raise ValueError(f"action_space must be one of {', '.join(ACTION_SPACES)}, not {self.action_space!r}")
        if self.observation == "som" and self.action_space != "pyautogui":
            raise ValueError("the som observation needs the pyautogui action space (index_N names are code)")
        if min(self.history, self.rag_topk, self.retries) < 0 or self.max_tokens <= 0:
            raise ValueError("history, rag_topk and retries must be >= 0 and max_tokens > 0")


def _flag(value: Any) -> bool:
    text = str(value).strip().lower()
    if text not in TRUE_WORDS + FALSE_WORDS:
        raise ValueError(f"expected a yes/no value, got {value!r}")
    return text in TRUE_WORDS


@dataclass(frozen=True)
class View:
    """One observation as the model sees it, and what is needed to turn its reply into actions."""

    content: list[dict[str, Any]]
    screen: tuple[int, int]  #: real screen size
    image: tuple[int, int]  #: size of the image shown (the screen size when not scaled)
    marks: list[tuple[int, int, int, int]]
    png: bytes | None = None  #: the image shown, when it is not the raw screenshot


class LLMAgent(Agent):
    """The baseline agent (reference §6) over any :class:`~agents.backends.Backend`."""

    def __init__(self, settings: LLMSettings, backend: Backend, prompts: Prompts | None = None) -> None:
        self.settings = settings
        self.backend = backend
        self.prompts = prompts or Prompts.load()
        self.price = settings.price or pricing.price_of(settings.model)
        self._history: list[PastTurn] = []
        self._last_actions: list[Action] = []
        self._last_problem: str | None = None
        self._rag: str | None = None
        self._scratchpad = Scratchpad()

    @property
    def needs_accessibility_tree(self) -> bool:  # type: ignore[override]  # decided by the settings; the base's class attribute is its default
        return self.settings.observation != "screenshot"

    def reset(self, task: Task) -> None:
        self._history, self._last_actions, self._last_problem = [], [], None
        self._scratchpad = Scratchpad()
        self._rag = self._retrieve(task)

    def _retrieve(self, task: Task) -> str | None:
        """Documentation for the task, retrieved once per episode with the instruction as query."""
        s = self.settings
        if not s.rag_docs or s.rag_topk == 0:
            return None
        if s.rag_docs == "task":
            context = rag.precomputed_context(task.folder, s.rag_topk)
        else:
            index = rag.folder_index(Path(s.rag_docs).expanduser().resolve())
            context = rag.format_context(index.search(task.instruction, s.rag_topk))
        return self.prompts.rag(context) if context.strip() else None

    def act(self, instruction: str, observation: Observation) -> Turn:
        if observation.screenshot is None:  # no screen: the data-analysis loop
            return self._code_turn(instruction, observation)
        s = self.settings
        view = self._view(observation)
        pyautogui_scaled = s.action_space == "pyautogui" and view.image != view.screen
        coordinate_space = view.image if s.action_space == "computer_13" else view.screen
        system = self.prompts.system(
            observation=s.observation, action_space=s.action_space, instruction=instruction,
            password=s.password, screen=coordinate_space, scaled_image=view.image if pyautogui_scaled else None,
        )
        messages = assemble(system, self._rag, self._history, self._note(observation), view.content,
                            self.prompts.empty_reply())
        completion, messages = self._complete(messages)
        actions, problem = self._actions(completion.text, view)
        # only the window shown is kept: each past turn holds a full-size image
        self._history = [*self._history, PastTurn(view.content, completion.text)][-s.history:] if s.history else []
        self._last_actions, self._last_problem = actions, problem
        return Turn(response=completion.text, actions=actions, usage=self._usage(completion), prompt=redact(messages),
                    view=view.png)

    def _code_turn(self, instruction: str, observation: Observation) -> Turn:
        """One turn without a screen: the whole scratchpad in, code or the final answer out."""
        messages = self._scratchpad.messages(instruction, self._rag, observation.infos)  # type: ignore[arg-type]  # an ExecutionInfo is the dict the scratchpad reads
        completion, sent = self._complete(messages, fallback=trimmed(messages))
        actions = self._scratchpad.replied(completion.text)
        return Turn(response=completion.text, actions=actions, usage=self._usage(completion), prompt=redact(sent))

    def _usage(self, completion: Completion) -> dict[str, Any]:
        return {
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "cost_usd": pricing.cost_usd(self.price, completion.prompt_tokens, completion.completion_tokens),
            "attempts": completion.attempts,
        }

    # -- observation ------------------------------------------------------------------------

    def _view(self, observation: Observation) -> View:
        s = self.settings
        screen = png_size(observation.screenshot)  # type: ignore[arg-type]  # a screen agent is given a screenshot every turn
        nodes: list[Node] = prune(observation.accessibility_tree or "") if self.needs_accessibility_tree else []
        image: bytes | None = observation.screenshot
        marks: list[tuple[int, int, int, int]] = []
        if s.observation == "som":
            image, marks, nodes = draw_marks(observation.screenshot, nodes)  # type: ignore[arg-type]  # a screen agent is given a screenshot every turn
        factor = 1.0
        if s.observation == "a11y_tree":
            image = None
        elif s.screenshot_max_width:
            image, factor = scale_png(image, s.screenshot_max_width)  # type: ignore[arg-type]  # image is the screenshot here, given every turn
        shown = png_size(image) if image is not None and factor != 1.0 else screen
        if s.action_space == "computer_13" and factor != 1.0:
            nodes = [_scaled(node, factor) for node in nodes]
        table = None
        if self.needs_accessibility_tree:
            table = linearize(nodes, with_index=s.observation == "som", max_tokens=s.a11y_max_tokens)
        altered = image if image is not None and image is not observation.screenshot else None
        return View(self.prompts.observation(s.observation, image, table), screen, shown, marks, altered)

    def _note(self, observation: Observation) -> str | None:
        """What the model must know about its previous answer: why it held no action, or the
        errors its actions raised (execution feedback)."""
        if self._last_problem:
            return self.prompts.invalid_reply(self._last_problem)
        if self.settings.execution_feedback and self._last_actions:
            return self.prompts.feedback(self._last_actions, observation.infos)  # type: ignore[arg-type]  # an ExecutionInfo is the dict the prompts read
        return None

    # -- model call -------------------------------------------------------------------------

    def _complete(self, messages: list[Message], fallback: list[Message] | None = None) -> tuple[Completion, list[Message]]:
        """The model's completion and the messages that produced it; ``fallback`` is what to send
        when the prompt is too long (default: the system prompt and the current observation)."""
        from pytest_spider2v.agents.llm.backends import ContextTooLong, call_with_retries

        s = self.settings
        try:
            return call_with_retries(lambda: self.backend.complete(messages), s.retries, s.backoff), messages
        except ContextTooLong:
            # As the paper: once more with only the system prompt and the current observation.
            log.warning("prompt too long for %s; retrying with the current observation only", s.model)
            shorter = fallback if fallback is not None else messages[:1] + messages[-1:]
            return call_with_retries(lambda: self.backend.complete(shorter), s.retries, s.backoff), shorter

    # -- reply -> actions -------------------------------------------------------------------

    def _actions(self, text: str, view: View) -> tuple[list[Action], str | None]:
        """Executable actions of a reply, or none and the reason (told to the model next turn)."""
        try:
            if self.settings.action_space == "computer_13":
                return [_to_screen(a, view) for a in parse_computer13(text)], None
            actions = parse_pyautogui(text)
            if self.settings.observation == "som":
                actions = [resolve_indices(a, view.marks) if action_kind(a) == "code" else a for a in actions]  # type: ignore[arg-type]  # action_kind 'code' is a str
            return actions, None
        except ActionError as exc:
            return [], str(exc)


def _scaled(node: Node, factor: float) -> Node:
    return dataclasses.replace(node, x=round(node.x * factor), y=round(node.y * factor),
                               w=max(1, round(node.w * factor)), h=max(1, round(node.h * factor)))


def _to_screen(action: dict[str, Any], view: View) -> dict[str, Any]:
    """A computer_13 action with its image coordinates mapped onto the screen."""
    if view.image == view.screen:
        return action
    nested = isinstance(action.get("parameters"), dict)
    params = dict(action["parameters"] if nested else action)
    x, y = params.get("x"), params.get("y")
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
        params["x"], params["y"] = map_point(x, y, view.image, view.screen)
    return {**action, "parameters": params} if nested else params


# -- registration -------------------------------------------------------------------------------


def make_llm_agent(vendor: ModelVendor, settings: AgentSettings) -> LLMAgent:
    """Build the agent, or raise Unavailable (the task is skipped) when no key or server is set."""
    parsed = LLMSettings.parse(vendor.model_of(settings.name), dict(settings.options))
    return LLMAgent(parsed, make_backend(vendor, parsed, settings.name))


def make_backend(vendor: ModelVendor, parsed: LLMSettings, agent_name: str) -> Backend:
    """The vendor's SDK backend for ``parsed``, or Unavailable for ``agent_name`` when no key or
    server is set (every model-driven answerer is made here: Mind2Web's too)."""
    base_url = parsed.base_url or os.environ.get(vendor.base_url_env) or None
    key = os.environ.get(vendor.key_env)
    if not key and not base_url:
        raise Unavailable("agent", agent_name, vendor.key_hint)
    from pytest_spider2v.agents.llm import (
        backends,  # the SDKs: seconds to import, paid only by runs that make this agent
    )

    sampling = backends.Sampling(parsed.model, parsed.temperature, parsed.top_p, parsed.max_tokens,
                                 parsed.explicit_sampling)
    # A compatible server without authentication still needs some key for the SDK to send.
    backend_class: type[backends.OpenAIBackend | backends.AnthropicBackend] = getattr(backends, vendor.backend)
    return backend_class(sampling, key or "no-key", base_url, parsed.timeout)


def is_openai_model(name: str) -> bool:
    return name.startswith(OPENAI_PREFIXES) or name.startswith("openai:")


def is_anthropic_model(name: str) -> bool:
    return name.startswith(("claude", "anthropic:"))


@agents.register("openai", matches=is_openai_model)
def make_openai_agent(settings: AgentSettings) -> LLMAgent:
    return make_llm_agent(OPENAI, settings)


@agents.register("anthropic", matches=is_anthropic_model)
def make_anthropic_agent(settings: AgentSettings) -> LLMAgent:
    return make_llm_agent(ANTHROPIC, settings)
