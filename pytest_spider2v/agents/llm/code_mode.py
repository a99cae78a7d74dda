"""The model-driven agent where there is no screen: the loop of InfiAgent-DABench's agents.

In an environment without a screen (``display: false``, where DABench questions run) the model
cannot look or click; it works as the paper's data-analysis agents did, in the ReAct format of
their framework: it reasons (``Thought``), runs Python (``Action: python``, the code in a
```python block), reads what the code printed (``Observation``) and, once it knows, gives the
``Final Answer`` in the form the question asks for. The code runs through the ordinary action
path (a fresh ``python3`` in the guest per block) and the answer ends the episode as DONE
carrying it (:func:`~pytest_spider2v.run.agent.done_with_answer`), which the evaluator reads.

The model sees the whole episode every turn, as the paper's agents keep their scratchpad: the
system prompt (``prompts/code/system.txt``), the task, then each reply followed by what running
it printed. There are no images to make that expensive, so ``--history`` applies to screens
only; a prompt too long for the model is sent again with the task and the latest step alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import yaml

from pytest_spider2v.agents.llm.prompting import PROMPTS, Message, text_part
from pytest_spider2v.run.actions import ActionError
from pytest_spider2v.run.agent import Action, done_with_answer

#: ``Final Answer:`` at the start of a line: what follows is the answer.
FINAL_ANSWER = re.compile(r"^[ \t]*Final Answer[ \t]*:[ \t]*", re.MULTILINE | re.IGNORECASE)
_FENCED = re.compile(r"```(.*?)```", re.DOTALL)
#: A language word alone on the fence's first line (```python, ```py).
_LANGUAGE_LINE = re.compile(r"^[A-Za-z0-9_+-]+[ \t]*\n")
#: Output longer than this reaches the model as its beginning and its end (where errors are).
MAX_OUTPUT_CHARS = 4000
HINT = 'run Python in a ```python block after "Action: python", or give "Final Answer: ..." once you know'


def parse_code_reply(text: str) -> list[Action]:
    """The actions of a reply: its Final Answer (DONE carrying it) when it gives one, else each
    fenced code block, in order. Raises :class:`ActionError` (told to the model) for neither."""
    final = FINAL_ANSWER.search(text)
    if final is not None:
        answer = text[final.end():].strip()
        if not answer:
            raise ActionError("the Final Answer is empty")
        return [done_with_answer(answer)]
    blocks = []
    for block in _FENCED.findall(text):
        language = _LANGUAGE_LINE.match(block)
        code = (block[language.end():] if language else block).strip()
        if code:
            blocks.append(code)
    if not blocks:
        raise ActionError(f"no action found in the reply: {HINT}")
    return blocks


def output_text(info: dict[str, Any]) -> str:
    """What one block printed (stdout, then stderr, or the harness's reason for not running it),
    cut in the middle when long; empty when it printed nothing."""
    parts = [str(info.get("output") or ""), str(info.get("error") or "")]
    if info.get("status") == "error" and info.get("message"):
        parts.append(str(info["message"]))
    text = "\n".join(part.rstrip() for part in parts if part.strip())
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    half = MAX_OUTPUT_CHARS // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters cut ...]\n{text[-half:]}"


@dataclass(frozen=True)
class CodePrompts:
    """The texts of the conversation without a screen (data files in ``prompts/code/``)."""

    system: str
    messages: dict[str, str]

    @classmethod
    @cache
    def load(cls, folder: Path = PROMPTS / "code") -> CodePrompts:
        return cls((folder / "system.txt").read_text(encoding="utf-8").strip(),
                   yaml.safe_load((folder / "messages.yaml").read_text(encoding="utf-8")))

    def _message(self, key: str, **values: Any) -> str:
        return Template(self.messages[key]).substitute(values)

    def task(self, instruction: str) -> str:
        return self._message("task", instruction=instruction)

    def observation(self, infos: tuple[dict[str, Any], ...]) -> str:
        outputs = [output_text(info) or self.messages["no_output"] for info in infos]
        if len(outputs) == 1:
            return self._message("observation", outputs=outputs[0])
        blocks = "".join(self._message("block", number=n, output=o) for n, o in enumerate(outputs, 1))
        return self._message("observation", outputs=blocks.rstrip())

    def invalid_reply(self, reason: str) -> str:
        return self._message("invalid_reply", reason=reason.rstrip(". "))


@dataclass
class Scratchpad:
    """One episode as the model sees it: each reply and what came of it (its code's output, or why
    nothing could be run)."""

    prompts: CodePrompts = field(default_factory=CodePrompts.load)
    exchanges: list[tuple[str, str]] = field(default_factory=list)
    #: the latest reply and why it had no action (None: it had), until its outcome is known
    _pending: tuple[str, str | None] | None = None

    def messages(self, instruction: str, rag: str | None, infos: tuple[dict[str, Any], ...]) -> list[Message]:
        """The conversation of this turn; ``infos`` are the results of the latest reply's code."""
        if self._pending is not None:
            reply, problem = self._pending
            self.exchanges.append((reply, self.prompts.invalid_reply(problem) if problem else self.prompts.observation(infos)))
            self._pending = None
        messages: list[Message] = [{"role": "system", "content": [text_part(self.prompts.system)]}]
        if rag:
            messages.append({"role": "system", "content": [text_part(rag)]})
        messages.append({"role": "user", "content": [text_part(self.prompts.task(instruction))]})
        for reply, outcome in self.exchanges:
            messages.append({"role": "assistant", "content": [text_part(reply)]})
            messages.append({"role": "user", "content": [text_part(outcome)]})
        return messages

    def replied(self, text: str) -> list[Action]:
        """The actions of the model's reply (none when it had none; the reason goes back to it)."""
        try:
            actions, problem = parse_code_reply(text), None
        except ActionError as exc:
            actions, problem = [], str(exc)
        self._pending = (text, problem)
        return actions


def trimmed(messages: list[Message]) -> list[Message]:
    """The conversation cut for a model whose context it overflowed: the system prompt(s) and the
    task, then the latest reply and its outcome."""
    task = next(i for i, m in enumerate(messages) if m["role"] == "user")
    return messages[:task + 1] + (messages[-2:] if len(messages) > task + 1 else [])
