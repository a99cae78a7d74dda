"""Multimodal-Mind2Web Parquet files as a task format: one task per trajectory.

A Parquet file in the card's snapshot layout or the original layout (:mod:`.table`) is a task
file; pointing pytest at a downloaded folder collects every file in it. Each ``task_id``
(``annotation_id``) becomes a :class:`~pytest_spider2v.tasks.model.Task`:

* id the task id, app ``mind2web``, variant its split (``test_task``, ``test_website``,
  ``test_domain``), interface ``gui``, difficulty from its number of steps as the paper grades
  action counts;
* markers: ``mind2web``, its split, ``website_<name>``, ``domain_<name>``, ``subdomain_<name>``
  and ``steps_<n>`` (names lower-cased, anything but letters and digits as ``_``: ``-m
  "test_website and domain_travel"``, ``-k finance_google``);
* its steps are read again when it runs (the rows its facets name, by file), by the
  ``mind2web_steps`` evaluator: the step answers against the targets (:mod:`.scoring`).

The shards of one set (``test-00000-of-00003.parquet``, ...) are one task file: the first shard's
items hold every task of the set, since the hub cuts a split into files by rows and a task may
straddle two; a set with a shard missing is read file by file.

The claim is decided by the file's schema (its footer, not its rows): a Parquet file of another
shape (a table a Spider2-V task reads) is not a task file, one pyarrow cannot read at all is, so
that it errors with the reason rather than vanishing, except inside a Spider2-V checkout or a
project task folder, whose files are data.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from pytest_spider2v.formats.mind2web.steps import SPLITS, SnapshotSettings, WebTask
from pytest_spider2v.registry import getters, task_formats
from pytest_spider2v.tasks.layouts import in_spider2v_checkout
from pytest_spider2v.tasks.loading import validated_spec
from pytest_spider2v.tasks.model import PROJECT_FILE, Task, TaskFormatError

APP = "mind2web"
METRIC = "mind2web_steps"
ANSWERS_GETTER = "web_step_answers"
SOURCE = "https://huggingface.co/datasets/osunlp/Multimodal-Mind2Web"
SUFFIX = ".parquet"
#: A shard's name, as the hub cuts a split: ``<name>-<index>-of-<count>.parquet``.
SHARD = re.compile(r"^(.*)-(\d+)-of-(\d+)\.parquet$")


def marker(prefix: str, name: str) -> str:
    """``website``, ``finance.google`` -> ``website_finance_google``."""
    return f"{prefix}_" + (re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_") or "none")


class Mind2WebFormat:
    """The ``mind2web`` task format (see the module docstring). ``snapshot`` is how the original
    layout is sampled, set from the command line when pytest configures."""

    markers = {APP: "a Multimodal-Mind2Web task (its steps answered offline, scored as its card scores them)",
               **{split: f"Multimodal-Mind2Web split {split}" for split in SPLITS}}

    def __init__(self) -> None:
        self.snapshot = SnapshotSettings()

    def claims(self, path: Path) -> bool:
        return path.suffix == SUFFIX and _claimed(path, path.stat().st_mtime_ns if path.exists() else 0)

    def ignores(self, path: Path) -> bool:
        return False

    def load(self, path: Path) -> list[Task | TaskFormatError]:
        """The tasks of ``path``; of its whole set when it is the first shard of one, none when it
        is another shard of a whole set (the first one's items hold them)."""
        files = shard_set(path)
        if files[0] != path:
            return []
        return [entry if isinstance(entry, TaskFormatError) else _task(path, entry) for entry in self.read(files)]

    def read(self, files: list[Path], rows: dict[Path, list[int]] | None = None, *,
             run: bool = False) -> list[WebTask | TaskFormatError]:
        """The tasks of ``files`` (those holding ``rows``, when given); with ``run``, their
        prompts and screenshots too. The layout is the first file's."""
        from pytest_spider2v.formats.mind2web import snapshot, table

        try:
            layout = table.layout_of(files[0])
        except Exception as exc:  # pyarrow's errors of a damaged file have no common base
            return [TaskFormatError(files[0], None, None, f"cannot read as Parquet: {exc}")]
        if layout == "original":
            return snapshot.original_tasks(files, self.snapshot, rows, run=run)
        return table.card_tasks(files, rows, run=run)


def shard_set(path: Path) -> list[Path]:
    """``path``'s set of shards in order when it is one of a whole set
    (``<name>-00001-of-00003.parquet`` and its two siblings all present), else ``[path]``."""
    found = SHARD.match(path.name)
    if found is None:
        return [path]
    count = int(found.group(3))
    files = [path.with_name(f"{found.group(1)}-{i:0{len(found.group(2))}d}-of-{found.group(3)}{SUFFIX}")
             for i in range(count)]
    return files if all(file.is_file() for file in files) else [path]


@lru_cache(maxsize=1024)
def _claimed(path: Path, _mtime: int) -> bool:
    """Whether ``path`` is a Mind2Web file (cached per version of the file: collection asks twice)."""
    if in_spider2v_checkout(path) or any((folder / PROJECT_FILE).is_file() for folder in path.parents[:2]):
        return False
    from pytest_spider2v.formats.mind2web import table

    try:
        return table.layout_of(path) is not None
    except Exception:  # not Parquet at all: claimed, so that loading it says why it cannot be read
        return True


def _task(path: Path, web: WebTask) -> Task | TaskFormatError:
    valid = web.valid_steps
    try:
        spec = validated_spec(path, {
            "id": web.task_id,
            "snapshot": "none",
            "instruction": web.description,
            "source": [SOURCE],
            "related_apps": [APP],
            "tags": ["gui"],
            "action_number": max(len(web.steps), 1),
            "evaluator": {"func": METRIC, "result": {"type": ANSWERS_GETTER}},
        })
    except TaskFormatError as exc:
        return exc
    markers = (web.split, marker("website", web.website), marker("domain", web.domain),
               marker("subdomain", web.subdomain), f"steps_{len(web.steps)}")
    rows: dict[str, list[int]] = {}
    for step in web.steps:
        rows.setdefault(step.file.name, []).append(step.row)
    facets = {"split": web.split, "website": web.website, "domain": web.domain, "subdomain": web.subdomain,
              "steps": len(web.steps), "valid_steps": valid, "rows": rows}
    return Task(spec, path, path.parent, APP, web.split, web.description, APP, extra_markers=markers, facets=facets)


FORMAT = Mind2WebFormat()
task_formats.add(APP, FORMAT)
getters.declare(ANSWERS_GETTER, "a Mind2Web task's answers are given to its metric by its run; no environment holds them")
