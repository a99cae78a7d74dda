"""Reading Mind2Web Parquet files: which layout a file is in, and its rows as tasks.

Two layouts are read. The card's snapshot (``task_id``, ``split``, ``step``, ``prompt_0``,
``prompt_1``, ``candidates``, ``target_elements``, ...; one row a step) is used as it is; the
original Multimodal-Mind2Web layout (``annotation_id``, ``action_uid``, ``pos_candidates``,
``neg_candidates``, ``operation``, ``screenshot``, ...) is turned into the same view by
:mod:`.snapshot`.

Collection reads only the columns a task's items and its checks need (no page HTML, no prompts,
no screenshots: a file of the full test splits holds gigabytes of them); the run reads the rest
for its own rows alone, from the row groups that hold them. Every problem is a
:class:`~pytest_spider2v.tasks.model.TaskFormatError` naming the file, the row (0-based) and the
field; a bad row costs its own task, never the file's others.

A set of shards (``test-00000-of-00003.parquet``, ...: the hub cuts a split's rows into files in
order, so a task may straddle two) is read as one: its tasks are gathered over every shard.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from pyarrow import ArrowException

from pytest_spider2v.formats.mind2web.answers import OPERATIONS
from pytest_spider2v.formats.mind2web.steps import SPLITS, WebStep, WebTask
from pytest_spider2v.tasks.model import TaskFormatError

#: The card's columns a task needs at collection, and those read only when it runs.
CARD_INDEX = ("task_id", "split", "step", "task_description", "candidates", "target_elements", "target_op",
              "target_op_value", "website", "domain", "subdomain", "is_valid")
CARD_RUN = ("prompt_0", "prompt_1")
#: The columns that tell the original layout; it is read by :mod:`.snapshot`.
ORIGINAL_MARKS = ("annotation_id", "action_uid", "pos_candidates", "neg_candidates")
#: What the rows of one task share.
SHARED = ("task_id", "split", "task_description", "website", "domain", "subdomain")
_DATA_URL = re.compile(r"^data:(image/[\w.+-]+);base64,(.*)$", re.DOTALL)


def layout_of(path: Path) -> str | None:
    """``"card"``, ``"original"`` or None (another Parquet file), from the file's schema alone;
    raises what pyarrow raises for a file that is not Parquet."""
    import pyarrow.parquet as pq

    names = set(pq.read_schema(path).names)
    if {"task_id", "candidates", "target_elements"} <= names:
        return "card"
    if set(ORIGINAL_MARKS) <= names:
        return "original"
    return None


def read_rows(path: Path, columns: Iterable[str], rows: Iterable[int] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(row number, {column: value})`` for ``rows`` (every row when None), reading ``columns``
    only, and only the row groups that hold the rows asked for, one at a time (a caller that
    keeps little of each row holds one row group in memory). A column the file lacks raises
    :class:`KeyError` naming it, before any row is given."""
    import pyarrow.parquet as pq

    file = pq.ParquetFile(path)
    names = set(file.schema_arrow.names)
    missing = [name for name in columns if name not in names]
    if missing:
        raise KeyError(missing[0])
    wanted = None if rows is None else set(rows)
    return _row_groups(file, list(columns), wanted)


def _row_groups(file: Any, columns: list[str], wanted: set[int] | None) -> Iterator[tuple[int, dict[str, Any]]]:
    start = 0
    for group in range(file.num_row_groups):
        size = file.metadata.row_group(group).num_rows
        if wanted is None or any(start <= row < start + size for row in wanted):
            for offset, values in enumerate(file.read_row_group(group, columns=columns).to_pylist()):
                if wanted is None or start + offset in wanted:
                    yield start + offset, values
        start += size


def card_tasks(files: list[Path], rows: dict[Path, list[int]] | None = None, *,
               run: bool = False) -> list[WebTask | TaskFormatError]:
    """The tasks of card-layout files (one file, or the shards of one set: a task may straddle
    two), those holding ``rows`` when given, in file order; with ``run`` their prompts and
    screenshots too."""
    return read_tasks(files, rows, lambda path: CARD_INDEX + (CARD_RUN if run else ()),
                      lambda path, row, values: (shared(values), _card_step(path, row, values, run)))


def read_tasks(files: list[Path], rows: dict[Path, list[int]] | None, columns: Callable[[Path], tuple[str, ...]],
               step: Callable[[Path, int, dict[str, Any]], tuple[dict[str, Any], WebStep | TaskFormatError]],
               ) -> list[WebTask | TaskFormatError]:
    """The tasks of ``files`` (either layout): each file's ``columns`` read (of ``rows``, when
    given), each row made into what its task shares and its ``step``, the rows gathered into
    tasks; a file that lacks a column or cannot be read is an error of its own."""
    made: list[MadeRow] = []
    errors: list[WebTask | TaskFormatError] = []
    for path in files:
        try:
            for row, values in read_rows(path, columns(path), None if rows is None else rows.get(path, [])):
                made.append((path, row, *step(path, row, values)))
        except KeyError as exc:
            errors.append(TaskFormatError(path, None, str(exc.args[0]), "required column is missing"))
        except (OSError, ArrowException) as exc:
            errors.append(TaskFormatError(path, None, None, f"cannot read as Parquet: {exc}"))
    return errors + group_rows(made)


#: One row read: its file and number, what it shares with its task's other rows, and its step or
#: the problem with it.
MadeRow = tuple[Path, int, dict[str, Any], "WebStep | TaskFormatError"]


def shared(values: dict[str, Any]) -> dict[str, Any]:
    """What every row of a task shares (the rest of a row is its step)."""
    return {name: values.get(name) for name in SHARED}


def group_rows(read: list[MadeRow]) -> list[WebTask | TaskFormatError]:
    """Rows gathered into tasks by ``task_id``: a task's steps sorted by ``step``; a task with a
    bad row, or rows that disagree on what they share, becomes the problem of its first bad row."""
    order: dict[str, list[MadeRow]] = {}
    entries: list[WebTask | TaskFormatError] = []
    for path, row, values, step in read:
        task_id = values.get("task_id")
        if not isinstance(task_id, str) or not task_id.strip():
            entries.append(TaskFormatError(path, None, "task_id", f"row {row}: must be a non-empty string, "
                                           f"got {task_id!r}", line=row))
            continue
        order.setdefault(task_id, []).append((path, row, values, step))
    for task_id, members in order.items():
        try:
            entries.append(_task(task_id, members))
        except TaskFormatError as exc:
            entries.append(exc)
    return entries


def _task(task_id: str, members: list[MadeRow]) -> WebTask:
    for _, _, _, step in members:
        if isinstance(step, TaskFormatError):
            raise step
    first_path, first_row, first, _ = members[0]
    for path, row, values, _ in members[1:]:
        for name in SHARED[1:]:
            if values.get(name) != first.get(name):
                where = "" if path == first_path else f" of {first_path.name}"
                raise TaskFormatError(path, task_id, name, f"row {row}: {values.get(name)!r} differs from row "
                                      f"{first_row}{where}'s {first.get(name)!r} in the same task")
    steps = sorted((step for _, _, _, step in members if isinstance(step, WebStep)), key=lambda s: s.step)
    for before, after in zip(steps, steps[1:]):
        if before.step == after.step:
            where = "" if before.file == after.file else f" of {before.file.name}"
            raise TaskFormatError(after.file, task_id, "step", f"row {after.row}: step {after.step} is also row "
                                                               f"{before.row}{where}")
    return WebTask(task_id, str(first["split"]), str(first["task_description"]), str(first["website"]),
                   str(first["domain"]), str(first["subdomain"]), tuple(steps))


def _card_step(path: Path, row: int, values: dict[str, Any], run: bool) -> WebStep | TaskFormatError:
    task_id = values.get("task_id") if isinstance(values.get("task_id"), str) else None

    def fail(name: str, message: str) -> TaskFormatError:
        return TaskFormatError(path, task_id, name, f"row {row}: {message}")

    for name in ("task_description", "website", "domain", "subdomain"):
        if not isinstance(values.get(name), str) or not values[name].strip():
            return fail(name, f"must be a non-empty string, got {values.get(name)!r}")
    if values.get("split") not in SPLITS:
        return fail("split", f"must be one of {', '.join(SPLITS)}, got {values.get('split')!r}")
    step = values.get("step")
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        return fail("step", f"must be a whole number from 0, got {step!r}")
    if not isinstance(values.get("is_valid"), bool):
        return fail("is_valid", f"must be true or false, got {values.get('is_valid')!r}")
    for name in ("candidates", "target_elements"):
        if not isinstance(values.get(name), list) or not all(isinstance(c, str) for c in values[name]):
            return fail(name, f"must be a list of HTML strings, got {_short(values.get(name))}")
    candidates, targets = values["candidates"], set(values["target_elements"])
    if not candidates:
        return fail("candidates", "is empty: there is nothing to choose from")
    if values.get("target_op") not in OPERATIONS:
        return fail("target_op", f"must be one of {', '.join(OPERATIONS)}, got {values.get('target_op')!r}")
    value = values.get("target_op_value")
    if value is not None and not isinstance(value, str):
        return fail("target_op_value", f"must be a string, got {value!r}")
    positives = tuple(i for i, candidate in enumerate(candidates) if candidate in targets)
    if values["is_valid"] and not positives:
        return fail("candidates", "no candidate is one of target_elements, yet the row is valid "
                                  "(a row without a positive must have is_valid false)")
    prompts: dict[str, list[dict[str, Any]]] = {}
    screenshot = None
    if run:
        for name in CARD_RUN:
            try:
                prompts[name] = messages(values.get(name))
            except ValueError as exc:
                return fail(name, str(exc))
        screenshot = next((image for m in prompts["prompt_0"] for image in _images(m)), None)
    return WebStep(path, row, step, values["is_valid"], tuple(candidates), positives, values["target_op"],
                   value or "", prompts.get("prompt_0", []), prompts.get("prompt_1", []), screenshot)


def messages(value: Any) -> list[dict[str, Any]]:
    """The card's chat messages (OpenAI's shape, as Parquet stores it: every part has ``type``,
    ``text`` and ``image_url``, the unused one null) as the model backends' provider-neutral
    messages: text parts, and images as base64 with their media type and size."""
    if not isinstance(value, list) or not value:
        raise ValueError(f"must be a non-empty list of chat messages, got {_short(value)}")
    converted = []
    for i, message in enumerate(value):
        if not isinstance(message, dict) or message.get("role") not in ("system", "user", "assistant"):
            raise ValueError(f"message {i} must have a role of system, user or assistant, got {_short(message)}")
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            raise ValueError(f"message {i}: content must be text or a list of parts, got {_short(content)}")
        converted.append({"role": message["role"], "content": [_part(i, j, part) for j, part in enumerate(content)]})
    return converted


def _part(i: int, j: int, part: Any) -> dict[str, Any]:
    kind = part.get("type") if isinstance(part, dict) else None
    if kind == "text" and isinstance(part.get("text"), str):
        return {"type": "text", "text": part["text"]}
    if kind == "image_url":
        url = part.get("image_url")
        url = url.get("url") if isinstance(url, dict) else url
        found = _DATA_URL.match(url) if isinstance(url, str) else None
        if found is None:
            raise ValueError(f"message {i}, part {j}: an image must be a data: URL, got {_short(url)}")
        try:
            data = base64.b64decode(found.group(2), validate=True)
        except binascii.Error:
            raise ValueError(f"message {i}, part {j}: the image's base64 is damaged") from None
        return image_part(data, found.group(1))
    raise ValueError(f"message {i}, part {j}: expected a text or image_url part, got {_short(part)}")


def image_part(data: bytes, media_type: str) -> dict[str, Any]:
    """An image part of a model message; its size is read from the image (an unreadable image is
    a :class:`ValueError`: a model would be sent nothing it could see)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            size = image.size
    except (UnidentifiedImageError, OSError):
        raise ValueError(f"the {media_type} image cannot be read") from None
    return {"type": "image", "data": base64.b64encode(data).decode("ascii"), "media_type": media_type, "size": size}


def _images(message: dict[str, Any]) -> Iterable[bytes]:
    for part in message["content"]:
        if part["type"] == "image":
            yield base64.b64decode(part["data"])


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
