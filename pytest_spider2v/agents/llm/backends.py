"""Model calls through the providers' own SDKs: OpenAI Chat Completions (also any
OpenAI-compatible server via a base URL) and Anthropic Messages.

Retries: rate limits (429), timeouts, connection errors, 408/409 and 5xx are retried by
``tenacity`` with exponential backoff and jitter, honouring the server's ``Retry-After``. The
SDKs' built-in retries are switched off so that there is one retry policy, with a configurable
initial delay (tests use 0; the original waited a constant 30 s, up to 10 tries).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import anthropic
import openai
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from pytest_spider2v.agents.llm.prompting import Message, Part

log = logging.getLogger(__name__)

#: longest wait between two attempts, whatever the server asks for
MAX_WAIT = 120.0
TRANSIENT_STATUS = frozenset({408, 409, 429})


class ContextTooLong(Exception):
    """The prompt exceeds the model's context window (the caller may retry with less)."""


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    attempts: int = 1


@dataclass(frozen=True)
class Sampling:
    model: str
    temperature: float
    top_p: float
    max_tokens: int
    #: the sampling options the user set explicitly (see :class:`AnthropicBackend`)
    explicit: frozenset[str] = frozenset()


class Backend(Protocol):
    def complete(self, messages: list[Message]) -> Completion: ...


def is_transient(exc: BaseException) -> bool:
    """Worth another try: rate limits, timeouts, connection failures and server errors."""
    if isinstance(exc, (openai.APIConnectionError, anthropic.APIConnectionError)):
        return True  # includes the SDKs' timeout errors
    if isinstance(exc, (openai.APIStatusError, anthropic.APIStatusError)):
        return exc.status_code in TRANSIENT_STATUS or exc.status_code >= 500
    return False


def retry_after(exc: BaseException | None) -> float | None:
    """The server's requested delay (``retry-after-ms`` or ``retry-after`` seconds), if any."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        try:
            return min(max(float(headers[name]) / divisor, 0.0), MAX_WAIT)
        except (KeyError, TypeError, ValueError):
            continue
    return None


class _Wait:
    """Retry-After when the server gives one, else exponential backoff from ``initial`` seconds."""

    def __init__(self, initial: float) -> None:
        self._exponential = wait_exponential_jitter(multiplier=initial, max=MAX_WAIT, jitter=initial)

    def __call__(self, state: RetryCallState) -> float:
        hinted = retry_after(state.outcome.exception() if state.outcome else None)
        return hinted if hinted is not None else self._exponential(state)


def call_with_retries(call: Callable[[], Completion], retries: int, backoff: float) -> Completion:
    """``call()`` with up to ``retries`` further attempts on transient errors; the last error is
    re-raised. The returned completion counts the attempts made."""
    retrying = Retrying(
        retry=retry_if_exception(is_transient), stop=stop_after_attempt(retries + 1), wait=_Wait(backoff),
        reraise=True, before_sleep=_log_retry,
    )
    for attempt in retrying:
        with attempt:
            completion = call()
    number = attempt.retry_state.attempt_number
    return Completion(completion.text, completion.prompt_tokens, completion.completion_tokens, number)


def _log_retry(state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    log.warning("model call failed (attempt %d), retrying in %.1fs: %s",
                state.attempt_number, state.upcoming_sleep, exc)


# -- OpenAI -------------------------------------------------------------------------------------


class OpenAIBackend:
    """Chat Completions with images as ``data:`` URLs at ``detail: high`` (as the paper)."""

    def __init__(self, sampling: Sampling, api_key: str, base_url: str | None, timeout: float) -> None:
        self.sampling = sampling
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)

    def complete(self, messages: list[Message]) -> Completion:
        s = self.sampling
        try:
            reply = self._client.chat.completions.create(
                model=s.model, messages=[_openai_message(m) for m in messages],  # type: ignore[misc]
                temperature=s.temperature, top_p=s.top_p, max_tokens=s.max_tokens,
            )
        except openai.BadRequestError as exc:
            if getattr(exc, "code", None) == "context_length_exceeded":
                raise ContextTooLong(str(exc)) from exc
            raise
        usage = reply.usage
        text = reply.choices[0].message.content if reply.choices else ""
        return Completion(text or "", usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)


def _openai_message(message: Message) -> dict[str, Any]:
    if message["role"] != "user":  # system and assistant turns are text only
        return {"role": message["role"], "content": "\n".join(p["text"] for p in message["content"])}
    return {"role": "user", "content": [_openai_part(p) for p in message["content"]]}


def _openai_part(part: Part) -> dict[str, Any]:
    if part["type"] == "image":
        media_type = part.get("media_type", "image/png")
        return {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,{part['data']}", "detail": "high"}}
    return {"type": "text", "text": part["text"]}


# -- Anthropic ----------------------------------------------------------------------------------


class AnthropicBackend:
    """Messages API: system messages go to ``system``; consecutive user messages are merged,
    because the API wants user and assistant turns to alternate.

    ``temperature`` and ``top_p`` are sent only when set explicitly, and then as extra body
    fields: current Claude models and the ``anthropic`` SDK no longer take sampling parameters,
    so the paper's defaults would make every request fail. Older models and compatible servers
    still honour them when given.
    """

    def __init__(self, sampling: Sampling, api_key: str, base_url: str | None, timeout: float) -> None:
        self.sampling = sampling
        self._client = anthropic.Anthropic(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)

    def complete(self, messages: list[Message]) -> Completion:
        s = self.sampling
        system = "\n\n".join(p["text"] for m in messages if m["role"] == "system" for p in m["content"])
        sampling = {name: value for name, value in (("temperature", s.temperature), ("top_p", s.top_p))
                    if name in s.explicit}
        try:
            reply = self._client.messages.create(
                model=s.model, system=system, messages=_anthropic_messages(messages),  # type: ignore[arg-type]
                max_tokens=s.max_tokens, extra_body=sampling or None,
            )
        except anthropic.BadRequestError as exc:
            if "prompt is too long" in str(exc):
                raise ContextTooLong(str(exc)) from exc
            raise
        text = "".join(block.text for block in reply.content if getattr(block, "type", "") == "text")  # type: ignore[union-attr]  # only text blocks, which have a text, pass the filter
        return Completion(text, reply.usage.input_tokens, reply.usage.output_tokens)


def _anthropic_messages(messages: list[Message]) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message["role"] == "system":
            continue
        content = [_anthropic_part(p) for p in message["content"]]
        if turns and turns[-1]["role"] == message["role"]:
            turns[-1]["content"].extend(content)
        else:
            turns.append({"role": message["role"], "content": content})
    return turns


def _anthropic_part(part: Part) -> dict[str, Any]:
    if part["type"] == "image":
        return {"type": "image", "source": {"type": "base64", "media_type": part.get("media_type", "image/png"),
                                            "data": part["data"]}}
    return {"type": "text", "text": part["text"]}
