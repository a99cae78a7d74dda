"""The ``mind2web_steps`` metric: a task's step answers against its targets, as the card scores
them (:mod:`.scoring`). Pure, like every metric: the run gives it the answers and the targets."""

from __future__ import annotations

from typing import Any

from pytest_spider2v.formats.mind2web.answers import option_name, parse_answer
from pytest_spider2v.formats.mind2web.format import METRIC
from pytest_spider2v.formats.mind2web.scoring import step_figures, task_success
from pytest_spider2v.registry import Scored, metrics


@metrics.register(METRIC)
def mind2web_steps(result: list[dict[str, Any]], expected: list[dict[str, Any]]) -> Scored:
    """``result``: ``{"step", "answer"}`` per step; ``expected``: ``{"step", "valid", "candidates"
    (their HTML), "targets" (indices), "op", "value"}`` per step. Scores 1 when every valid step is
    a success (task success), else 0; its parts are each step's answer, parsed, and its verdicts."""
    answers = {int(entry["step"]): str(entry.get("answer") or "") for entry in result}
    parts, verdicts = [], []
    for target in expected:
        answer = answers.get(int(target["step"]), "")
        parsed = parse_answer(answer, len(target["candidates"]))
        figures = step_figures(bool(target["valid"]), parsed.chosen, target["targets"], parsed.op, parsed.value,
                               target["op"], target["value"])
        verdicts.append(figures)
        parts.append({"step": target["step"], "answer": answer, **parsed.to_json(),
                      "chosen_name": option_name(parsed.chosen) if parsed.chosen is not None else None,
                      "targets": list(target["targets"]), "target_op": target["op"], "target_value": target["value"],
                      "candidates": list(target["candidates"]), **figures.to_json()})
    success = task_success(verdicts)
    valid = [v for v in verdicts if v.valid]
    wrong = [f"step {p['step']}: " + _why(p) for p in parts if p["valid"] and not p["success"]]
    detail = (f"task success {int(bool(success))}: {sum(v.success for v in valid)} of {len(valid)} valid steps right "
              f"(element {sum(v.element for v in valid)}/{len(valid)}, "
              f"operation F1 {sum(v.op_f1 for v in valid) / max(len(valid), 1):.3f})")
    return Scored(1.0 if success else 0.0, "; ".join([detail, *wrong[:5]]), tuple(parts))


def _why(part: dict[str, Any]) -> str:
    if part.get("problem"):
        return str(part["problem"])
    reasons = []
    if not part["element"]:
        chosen = part["chosen_name"] or "none of them"
        right = ", ".join(option_name(i) for i in part["targets"]) or "none"
        reasons.append(f"chose {chosen}, the target is {right}")
    if part["op_f1"] < 1:
        given = f"{part['op']} {part['value']}".strip()
        wanted = f"{part['target_op']} {part['target_value']}".strip()
        reasons.append(f"operation {given!r} for {wanted!r} (F1 {part['op_f1']:.2f})")
    return "; ".join(reasons)
