"""The snapshot view of the original Multimodal-Mind2Web layout, as the card builds it.

A row of the original (``annotation_id``, ``action_uid``, ``confirmed_task``, ``operation``,
``pos_candidates``, ``neg_candidates``, ``cleaned_html``, ``screenshot``, ``action_reprs``,
``target_action_index``, ``website``, ``domain``, ``subdomain``) becomes one step: ``k``
negatives sampled from ``neg_candidates`` and one positive from ``pos_candidates``, in an order
shuffled by a random generator seeded with the seed and the row's ``action_uid``, so the same
elements land in the same places whatever the file's order or which rows are read. ``k`` and the
seed are ``--mind2web-distractors`` and ``--mind2web-seed`` (the card's 20 and 42 by default).

A candidate is written as the card writes one: its tag with ``bnid`` (the backend node id) and
its telling attributes, and the text under it in ``cleaned_html``. The prompts are this project's,
in SeeAct's two rounds: ``prompt_0`` the task, the previous actions and the screenshot, asking
for the next action; ``prompt_1`` the candidates as lettered choices and the final answer's
format (:mod:`.answers`). A row is invalid, as the card marks it, when it has no screenshot or its
positive is not in ``cleaned_html``. The split is the file name's (``test_task-00000-of-00010``),
or a ``split`` column when the file has one. Shards of one set are read as one (:mod:`.table`).
"""

from __future__ import annotations

import json
import random
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from pytest_spider2v.formats.mind2web.answers import OPERATIONS, option_name
from pytest_spider2v.formats.mind2web.steps import SPLITS, SnapshotSettings, WebStep, WebTask
from pytest_spider2v.formats.mind2web.table import image_part, read_tasks, shared
from pytest_spider2v.tasks.model import TaskFormatError

INDEX = ("annotation_id", "action_uid", "confirmed_task", "website", "domain", "subdomain", "operation",
         "pos_candidates", "neg_candidates", "cleaned_html", "action_reprs", "target_action_index")
RUN = ("screenshot",)
#: Attributes a candidate keeps, besides its ``bnid``.
TELLING_ATTRIBUTES = ("role", "type", "name", "alt", "title", "aria_label", "placeholder", "value", "href")
MAX_TEXT = 200

SYSTEM = ("You are imitating a person who browses the web to complete a task. You are shown the task, the "
          "actions already taken and a screenshot of the page as it is now. Work out the single next action "
          "that person would take on this page.")
NEXT_ACTION = ("Task: {task}\nPrevious actions:\n{previous}\n\nThe screenshot below is the page now. Describe "
               "the next action: which element of the page to act on (where it is and what it shows), and "
               "whether to CLICK it, TYPE text into it or SELECT an option of it, with the text or option.")
GROUNDING = ("(Reiteration)\nFirst, restate the element you chose, where it is, and the operation.\n\n"
             "(Multichoice Question)\nBelow is a multiple-choice question: the choices are elements of the "
             "page. If one of them is the element you chose, answer with its letter. If none is, answer "
             "{none}.\n\n{choices}\n{none}. None of the other options match the correct element\n\n"
             "(Final Answer)\nEnd with these three lines and nothing after them:\n\n"
             "ELEMENT: the uppercase letter of your choice\nACTION: one of CLICK, TYPE, SELECT\n"
             "VALUE: the text to type or the option to select; None for CLICK")


def original_tasks(files: list[Path], settings: SnapshotSettings, rows: dict[Path, list[int]] | None = None, *,
                   run: bool = False) -> list[WebTask | TaskFormatError]:
    """The tasks of original-layout files (one, or the shards of one set) as snapshot steps (those
    holding ``rows``, when given); with ``run`` their prompts and screenshots too. The screenshots
    are read either way, since a row without one is invalid, a row group at a time."""
    def step(path: Path, row: int, values: dict[str, Any]) -> tuple[dict[str, Any], WebStep | TaskFormatError]:
        values = {**values, "task_id": values.get("annotation_id"), "split": values.get("split", _split(path)),
                  "task_description": values.get("confirmed_task")}
        return shared(values), _step(path, row, values, settings, run)

    return read_tasks(files, rows, lambda path: INDEX + RUN + _split_column(path), step)


def _split_column(path: Path) -> tuple[str, ...]:
    import pyarrow.parquet as pq

    return ("split",) if "split" in pq.read_schema(path).names else ()


def _split(path: Path) -> str:
    return next((name for name in SPLITS if path.stem.startswith(name)), "")


def _step(path: Path, row: int, values: dict[str, Any], settings: SnapshotSettings, run: bool) -> WebStep | TaskFormatError:
    task_id = values["task_id"] if isinstance(values["task_id"], str) else None

    def fail(name: str, message: str) -> TaskFormatError:
        return TaskFormatError(path, task_id, name, f"row {row}: {message}")

    if values["split"] not in SPLITS:
        return fail("split", f"the file name starts with none of {', '.join(SPLITS)} and it has no split column")
    for name in ("action_uid", "confirmed_task", "website", "domain", "subdomain"):
        if not isinstance(values.get(name), str) or not values[name].strip():
            return fail(name, f"must be a non-empty string, got {values.get(name)!r}")
    try:
        step = int(values.get("target_action_index"))  # type: ignore[arg-type]  # the hub stores it as text; None raises TypeError, which the except below reports
        operation = _json(values.get("operation"))
        positives = [_json(c) for c in values.get("pos_candidates") or []]
        negatives = [_json(c) for c in values.get("neg_candidates") or []]
    except (TypeError, ValueError) as exc:
        name = "target_action_index" if "int()" in str(exc) else "operation/pos_candidates/neg_candidates"
        return fail(name, f"cannot be read: {exc}")
    if operation.get("op") not in OPERATIONS:
        return fail("operation", f"op must be one of {', '.join(OPERATIONS)}, got {operation.get('op')!r}")
    html = values.get("cleaned_html") or ""
    rng = random.Random(f"{settings.seed}:{values['action_uid']}")
    positive = [rng.choice(positives)] if positives else []
    sampled = rng.sample(negatives, min(settings.distractors, len(negatives)))
    chosen = sampled + positive
    rng.shuffle(chosen)
    texts = _texts(html, {_node_id(c) for c in chosen})
    candidates = tuple(_candidate(c, texts) for c in chosen)
    targets = tuple(i for i, c in enumerate(chosen) if positive and c is positive[0])
    screenshot = _screenshot(values.get("screenshot"))
    valid = bool(targets) and _node_id(positive[0]) in texts and screenshot is not None
    if not candidates:
        return fail("neg_candidates", "no candidates at all: there is nothing to choose from")
    prompts = _prompts(values, step, candidates, screenshot) if run else ([], [])
    return WebStep(path, row, step, valid, candidates, targets, operation["op"], str(operation.get("value") or ""),
                   prompts[0], prompts[1], screenshot if run else None)


def _json(value: Any) -> dict[str, Any]:
    data = json.loads(value) if isinstance(value, str) else value
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {str(value)[:60]!r}")
    return data


def _attributes(candidate: dict[str, Any]) -> dict[str, Any]:
    attributes = candidate.get("attributes") or {}
    return _json(attributes) if isinstance(attributes, str) else dict(attributes)


def _node_id(candidate: dict[str, Any]) -> str:
    return str(candidate.get("backend_node_id") or _attributes(candidate).get("backend_node_id") or "")


def _candidate(candidate: dict[str, Any], texts: dict[str, str]) -> str:
    attributes = _attributes(candidate)
    tag = str(candidate.get("tag") or "element")
    kept = "".join(f" {name}={str(attributes[name])[:60]}" for name in TELLING_ATTRIBUTES if attributes.get(name))
    text = texts.get(_node_id(candidate), "")
    return f"<{tag} bnid={_node_id(candidate)}{kept}>{text}</{tag}>"


def _texts(html: str, wanted: set[str]) -> dict[str, str]:
    """The text under each element of ``html`` whose ``backend_node_id`` is in ``wanted``
    (present, if empty, for each one found)."""
    collector = _TextCollector(wanted)
    collector.feed(html)
    collector.close()
    return {node: " ".join(" ".join(parts).split())[:MAX_TEXT] for node, parts in collector.texts.items()}


class _TextCollector(HTMLParser):
    def __init__(self, wanted: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.wanted = wanted
        self.texts: dict[str, list[str]] = {}
        self.open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = dict(attrs).get("backend_node_id")
        if node in self.wanted:
            self.texts.setdefault(node, [])
        self.open.append(node if node in self.wanted else None)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = dict(attrs).get("backend_node_id")
        if node in self.wanted:
            self.texts.setdefault(node, [])

    def handle_endtag(self, tag: str) -> None:
        if self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for node in self.open:
            if node is not None:
                self.texts[node].append(data)


def _screenshot(value: Any) -> bytes | None:
    """The hub's image column: ``{"bytes": ..., "path": ...}``; None when it holds no image."""
    data = value.get("bytes") if isinstance(value, dict) else value
    return bytes(data) if isinstance(data, (bytes, bytearray)) and data else None


def _prompts(values: dict[str, Any], step: int, candidates: tuple[str, ...],
             screenshot: bytes | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    reprs = [str(r) for r in (values.get("action_reprs") or [])[:step]]
    previous = "\n".join(reprs) or "None"
    content: list[dict[str, Any]] = [{"type": "text", "text": NEXT_ACTION.format(task=values["confirmed_task"],
                                                                                 previous=previous)}]
    if screenshot is not None:
        try:
            content.append(image_part(screenshot, _media_type(screenshot)))
        except ValueError:
            pass  # an unreadable screenshot is no screenshot: the row is shown without one
    choices = "\n".join(f"{option_name(i)}. {c}" for i, c in enumerate(candidates))
    grounding = GROUNDING.format(none=option_name(len(candidates)), choices=choices)
    return ([{"role": "system", "content": [{"type": "text", "text": SYSTEM}]}, {"role": "user", "content": content}],
            [{"role": "user", "content": [{"type": "text", "text": grounding}]}])


def _media_type(data: bytes) -> str:
    return "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"
