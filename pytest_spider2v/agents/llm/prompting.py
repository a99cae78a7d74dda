"""Assembling the conversation a model sees each turn (reference §6.5), from the texts in
``prompts/`` beside this module.

Order of the messages, as the paper's baseline:

1. system: the system prompt (observation and action sections, tips with the password and the
   screen size) followed by the task;
2. system (optional): retrieved documentation;
3. the last N turns: each a user message with that turn's observation and an assistant message
   with the reply given then;
4. user (optional): what went wrong with the previous answer -- the actual error of each failed
   action (execution feedback), or why the reply held no usable action;
5. user: the current observation.

Messages are provider-neutral here: ``{"role", "content": [parts]}`` where a part is
``{"type": "text", "text"}`` or ``{"type": "image", "data": <base64 PNG>, "size": (w, h)}`` (with ``"media_type"`` for an image
that is not a PNG: a Mind2Web screenshot may be a JPEG). The
backends translate them to each wire format; :func:`redact` makes the copy kept in records.
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import yaml

from pytest_spider2v.run.agent import Action, action_kind

PROMPTS = Path(__file__).with_name("prompts")
OBSERVATIONS = ("screenshot", "a11y_tree", "screenshot_a11y_tree", "som")
ACTION_SPACES = ("pyautogui", "computer_13")
#: stderr of a failed action is cut to its end (where a traceback names the error) for the model
MAX_ERROR_CHARS = 2000

Part = dict[str, Any]
Message = dict[str, Any]


def text_part(text: str) -> Part:
    return {"type": "text", "text": text}


def image_part(png: bytes) -> Part:
    return {"type": "image", "data": base64.b64encode(png).decode("ascii"), "size": png_size(png)}


def png_size(png: bytes) -> tuple[int, int]:
    from PIL import Image  # only model-driven agents look at images; the plugin starts without PIL

    with Image.open(io.BytesIO(png)) as image:
        return image.size


@dataclass(frozen=True)
class PastTurn:
    """What the model was shown in an earlier turn and what it answered."""

    observation: list[Part]
    response: str


@dataclass(frozen=True)
class Prompts:
    """The prompt texts (data files), filled in per task and turn."""

    system_template: str
    observation_sections: dict[str, str]
    action_sections: dict[str, str]
    messages: dict[str, Any]

    @classmethod
    @cache
    def load(cls, folder: Path = PROMPTS) -> Prompts:
        def read(path: Path) -> str:
            return path.read_text(encoding="utf-8").strip()

        return cls(
            system_template=read(folder / "system.txt"),
            observation_sections={name: read(folder / "observation" / f"{name}.txt") for name in OBSERVATIONS},
            action_sections={name: read(folder / "action" / f"{name}.txt") for name in ACTION_SPACES},
            messages=yaml.safe_load((folder / "messages.yaml").read_text(encoding="utf-8")),
        )

    def _message(self, key: str, **values: Any) -> str:
        return Template(self.messages[key]).substitute(values)

    def system(self, *, observation: str, action_space: str, instruction: str, password: str,
               screen: tuple[int, int], scaled_image: tuple[int, int] | None = None) -> str:
        """The first system message. ``screen`` is the size coordinates refer to;
        ``scaled_image`` is the size of a shrunk screenshot whose coordinates the model must
        convert itself (pyautogui code), which the prompt then explains."""
        scale_note = ""
        if scaled_image is not None:
            factor = screen[0] / scaled_image[0]
            scale_note = self._message("scale_note", image_width=scaled_image[0], image_height=scaled_image[1],
                                       factor=f"{factor:.4g}")
        prompt = Template(self.system_template).substitute(
            observation_space=self.observation_sections[observation],
            action_space=self.action_sections[action_space],
            password=password, screen_width=screen[0], screen_height=screen[1], scale_note=scale_note,
        )
        return prompt + self._message("task", instruction=instruction)

    def rag(self, context: str) -> str:
        return self._message("rag", context=context)

    def observation(self, kind: str, image: bytes | None, table: str | None) -> list[Part]:
        """The content of the user message that shows one observation: text first, then image."""
        parts = [text_part(Template(self.messages["observation"][kind]).substitute(table=table or ""))]
        if image is not None:
            parts.append(image_part(image))
        return parts

    def empty_reply(self) -> str:
        return str(self.messages["empty_reply"])

    def invalid_reply(self, reason: str) -> str:
        return self._message("invalid_reply", reason=reason.rstrip(". "))

    def feedback(self, actions: list[Action], infos: tuple[dict[str, Any], ...]) -> str | None:
        """The actual error of every failed action of the previous turn, or None if none failed.

        The original built this message with an inverted condition and so told the model "No
        valid action detected" exactly when there *were* actions, never showing the error
        (reference §6.5 item 4, §9 quirk 4). Here each failed action is shown with its own
        error: the harness's message for a refused action, else the end of its stderr.
        """
        failures = [
            self._message("failure", number=number, action=_action_text(action), error=error)
            for number, (action, info) in enumerate(zip(actions, infos), start=1)
            if (error := failure_text(info))
        ]
        return self._message("feedback", failures="".join(failures)) if failures else None


def failure_text(info: dict[str, Any]) -> str:
    """The error of one execution result, or "" for a success (the original's test: status
    "error" or a non-empty ``error``)."""
    stderr = str(info.get("error") or "").strip()
    if info.get("status") == "error":
        text = str(info.get("message") or stderr or f"failed with return code {info.get('returncode')}")
    else:
        text = stderr
    return text if len(text) <= MAX_ERROR_CHARS else "[...]" + text[-MAX_ERROR_CHARS:]


def _action_text(action: Action) -> str:
    if isinstance(action, dict):
        return json.dumps(action, ensure_ascii=False)
    return action if action_kind(action) == "code" else action.strip()


def assemble(system: str, rag: str | None, history: list[PastTurn], note: str | None,
             current: list[Part], empty_reply: str) -> list[Message]:
    """The whole conversation of one turn, in the order given in the module docstring."""
    messages: list[Message] = [{"role": "system", "content": [text_part(system)]}]
    if rag:
        messages.append({"role": "system", "content": [text_part(rag)]})
    for past in history:
        messages.append({"role": "user", "content": past.observation})
        messages.append({"role": "assistant", "content": [text_part(past.response or empty_reply)]})
    if note:
        messages.append({"role": "user", "content": [text_part(note)]})
    messages.append({"role": "user", "content": current})
    return messages


def redact(messages: list[Message]) -> list[dict[str, Any]]:
    """A JSON-able copy for the records: every image becomes ``"<image WxH>"``.

    Screenshots are already stored per step; repeating their base64 in every prompt would
    multiply a record's size by the history length.
    """
    def part(p: Part) -> Any:
        if p["type"] == "image":
            return f"<image {p['size'][0]}x{p['size'][1]}>"
        return p["text"]

    return [{"role": m["role"], "content": [part(p) for p in m["content"]]} for m in messages]
