"""Closed-form answers, scored as InfiAgent-DABench scores them (its ``eval_closed_form.py``).

An answer is text holding ``@answer_name[value]`` pairs, found with the original's pattern
``@(\\w+)\\[(.*?)\\]``. A sub-answer is right when its value equals the label as a string, or
when both parse as floats (Python's ``float``, as the original) less than 1e-6 apart. Where a name
occurs twice the last occurrence counts, in the answer and in the labels alike, because the
original reads both into a dict (question 734 of the dev set lists its two names seven times:
two sub-answers). The question scores 1 when every sub-answer is right, else 0; each
sub-answer's verdict is a part of the score, kept in the task's record for the summary's
sub-question accuracies.

One deliberate difference: the original leaves a question whose response is empty out of every
accuracy, so an agent that answers nothing scores nothing but also loses nothing; here no answer
is a wrong answer to every sub-question.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_spider2v.registry import Scored, metrics

#: The original's pattern: a name of word characters, the value up to the first closing bracket.
ANSWER_PAIR = re.compile(r"@(\w+)\[(.*?)\]")
#: Two numbers closer than this are equal (the original's ``abs(a - b) < 1e-6``).
TOLERANCE = 1e-6


def answer_pairs(text: str) -> dict[str, str]:
    """Name -> value of every ``@name[value]`` in ``text``; a name given twice keeps its last value."""
    return {name: value for name, value in ANSWER_PAIR.findall(text)}


def label_pairs(labels: Iterable[Iterable[Any]] | Mapping[str, Any]) -> dict[str, str]:
    """The labels as name -> value: published ``common_answers`` pairs (a name listed twice keeps
    its last value, at its first place) or a mapping."""
    items = labels.items() if isinstance(labels, Mapping) else (tuple(pair) for pair in labels)
    pairs: dict[str, str] = {}
    for item in items:
        if len(item) != 2 or not isinstance(item[0], str):
            raise ValueError(f"a label is a [name, value] pair, got {list(item)!r}")
        pairs[item[0]] = str(item[1])
    return pairs


def is_equal(given: str | None, label: str) -> bool:
    """The original's rule: equal strings, or floats less than :data:`TOLERANCE` apart."""
    if given is None:
        return False
    if given == label:
        return True
    try:
        return abs(float(given) - float(label)) < TOLERANCE
    except ValueError:
        return False


def format_answer(pairs: Mapping[str, str]) -> str:
    """``@name[value]`` for each pair, a line each: an answer in the closed form."""
    return "\n".join(f"@{name}[{value}]" for name, value in pairs.items())


@metrics.register()
def closed_form(result: str | None, expected: Iterable[Iterable[Any]] | Mapping[str, Any]) -> Scored:
    """1 when every labelled sub-answer of ``expected`` is right in the answer text ``result``
    (None: no answer given), else 0; the verdict on each is a part of the score."""
    labels = label_pairs(expected)
    if not labels:
        raise ValueError("no labelled sub-answers to compare with")
    given = answer_pairs(result) if result is not None else {}
    parts = tuple({"name": name, "expected": label, "given": given.get(name), "correct": is_equal(given.get(name), label)}
                  for name, label in labels.items())
    right = sum(part["correct"] for part in parts)  # type: ignore[misc]  # is_equal gives a bool
    wrong = [f"{p['name']}: {'nothing' if p['given'] is None else repr(p['given'])} (expected {p['expected']!r})"
             for p in parts if not p["correct"]]
    detail = ("no answer given; " if result is None else "") + f"{right} of {len(parts)} sub-answers right"
    if wrong:
        detail += "; wrong: " + ", ".join(wrong)
    return Scored(1.0 if right == len(parts) else 0.0, detail, parts)  # type: ignore[arg-type]  # the parts hold JSON values: text, a bool, None
