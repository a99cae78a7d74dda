"""The decision: what a task needs that its image family does not provide, and why, worded.

:func:`unmet_needs` compares the task's needs (:func:`~pytest_spider2v.tasks.needs.task_needs.task_needs`,
corrected by :mod:`.known_needs`) with what its image family declares it provides
(``provides.yaml``, see :func:`pytest_spider2v.environments.snapshots.load_manifest`), so a task
that cannot work here is skipped with the exact reason, before any container starts. Programs are
checked by name (and by subcommand where a family provides only some, as a shim does), packages
by distribution name, not version; hosts against what the family serves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_spider2v.environments.snapshots import (
    RECIPES_DIR,
    Family,
    Manifest,
    load_manifest,
    load_snapshots,
    normalize_distribution,
)
from pytest_spider2v.tasks.needs.facts import Need, is_internet_host
from pytest_spider2v.tasks.needs.known_needs import KNOWN_NEEDS, load_known_needs
from pytest_spider2v.tasks.needs.task_needs import task_needs

if TYPE_CHECKING:
    from pytest_spider2v.tasks.model import Task


@dataclass(frozen=True)
class Unmet:
    """A need the task's image family does not provide."""

    need: Need
    family: str  #: the image family (recipe); the snapshot's name when it has none
    #: what the family offers of a program it restricts to some subcommands
    offered: tuple[str, ...] = ()
    #: why no image can have the program (provides.yaml's ``cannot_provide``), if none can
    why: str = ""

    @property
    def called(self) -> str:
        """A restricted program's call, as many subcommand words deep as the family's entries."""
        depth = max((len(c.split()) - 1 for c in self.offered), default=0)
        return " ".join([self.need.name, *self.need.detail.split()[:depth]])

    @property
    def summary(self) -> str:
        """The reason without its location, the same for every task it applies to."""
        return self._text(located=False)

    def __str__(self) -> str:
        return self._text(located=True)

    def _text(self, located: bool) -> str:
        need, image = self.need, f"image '{self.family}'"
        at = f" ({need.where})" if located else ""
        if need.kind == "file":
            return f"needs {need.name}{at}, missing from the checkout"
        if need.kind == "program":
            call = f" (called in {need.where}: {need.call})" if located else ""
            why = f": {self.why}" if self.why else ""
            if self.offered:
                have = ", ".join(f"'{c}'" for c in self.offered)
                return f"needs '{self.called}'{call}, not in {image}, which has only {have}{why}"
            return f"needs program '{need.name}'{call}, not in {image}{why}"
        if need.kind == "conda_env":
            where = f" (activated in {need.where})" if located else ""
            return f"needs conda environment '{need.name}'{where}, not in {image}"
        if need.kind == "package":
            imported = need.detail
            if imported:
                named = imported if normalize_distribution(imported) == need.name else f"{imported} ({need.name})"
                return f"imports {named}{' in ' + need.where if located else ''}, not in {image}"
            return f"installs Python package '{need.name}'{at}, not in {image}"
        if is_internet_host(need.name):
            return f"downloads from {need.name} ({need.where + '; ' if located else ''}no internet here)"
        return f"connects to host '{need.name}'{at}, which {image} does not serve"


def unmet_needs(task: Task, environments_dir: Path = RECIPES_DIR,
                known_needs: Path = KNOWN_NEEDS) -> list[Unmet]:
    """What the task needs that its image family does not provide (first place named, each once),
    with the corrections ``known_needs`` holds for the task."""
    manifest = load_manifest(environments_dir)
    snapshot = load_snapshots(environments_dir).get(task.spec.snapshot)
    family = manifest.families.get(snapshot.recipe) if snapshot is not None else None
    image = snapshot.recipe if snapshot is not None else task.spec.snapshot
    found = task_needs(task, manifest)
    known = load_known_needs(known_needs).get(task.key)
    if known is not None:
        found = [n for n in found if (n.kind, n.name) not in known.not_needs] + list(known.needs)
    unmet: dict[tuple[str, str, str], Unmet] = {}
    for need in found:
        problem = _check(need, image, family, manifest)
        if problem is not None:  # each once: a program per subcommand only where the family has some
            unmet.setdefault((need.kind, need.name, problem.called if problem.offered else ""), problem)
    order: dict[str, int] = {"file": 0, "program": 1, "conda_env": 2, "package": 3, "host": 4}
    return sorted(unmet.values(), key=lambda u: order[u.need.kind])


def _cannot_provide(manifest: Manifest, words: list[str]) -> str:
    """Why no image can have the call ``words`` (its longest listed prefix), or ""."""
    return next((manifest.cannot_provide[key] for end in range(len(words), 0, -1)
                 if (key := " ".join(words[:end])) in manifest.cannot_provide), "")


def _check(need: Need, name: str, family: Family | None, manifest: Manifest) -> Unmet | None:
    """The need as unmet by image ``name`` (of ``family``, if it declares one), or None when provided."""
    if need.kind == "file":
        return Unmet(need, name)
    if need.kind == "host":
        served = family.serves if family is not None else manifest.serves
        return None if need.name in served else Unmet(need, name)
    if family is None:  # no declared image: programs and packages cannot be judged
        return None
    if need.kind == "program":
        offered = family.subcommands(need.name)
        if offered:
            called = need.detail.split()
            provided = any(called[:len(words)] == words for words in (c.split()[1:] for c in offered))
            return None if provided else Unmet(need, name, offered, _cannot_provide(manifest, [need.name, *called]))
        return None if need.name in family.programs else Unmet(need, name, why=_cannot_provide(manifest, [need.name]))
    if need.kind == "conda_env":
        return None if need.name in family.conda_envs else Unmet(need, name)
    return None if {need.name, *need.alternatives} & family.packages else Unmet(need, name)
