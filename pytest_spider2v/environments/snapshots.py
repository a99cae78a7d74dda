"""The environments: image recipes, the snapshot table, and (in :mod:`.build`) the command that
builds them.

Each folder here is a recipe (a Dockerfile and what it copies) whose image is
``spider2v/<recipe>:latest``. Tasks name a snapshot (``desktop``, ``excel``, ...);
``snapshots.yaml`` beside this file maps each to a recipe, in one place, so that the providers
and the build command can never disagree. ``provides.yaml`` declares what each recipe's image
offers a task (programs, conda environments, Python packages, served hosts), for the static
needs analysis (:mod:`pytest_spider2v.tasks.needs.analysis`); an end-to-end test holds it to the built images.

An extension that brings an application family of its own registers a folder laid out the same
way in :data:`pytest_spider2v.registry.recipes_dirs`: its recipes are found beside the built-in
ones (and may be layered on them), and its tables' entries add to the built-in tables'
(:func:`recipes_dirs`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.registry import recipes_dirs as registered_recipes_dirs

#: The guest server's port, inside every environment.
GUEST_SERVER_PORT = 5000
#: Guest ports every environment publishes: the guest server, Chromium DevTools and the live view.
BASE_PORTS: tuple[int, ...] = (GUEST_SERVER_PORT, 9222, 6080)


def image_name(recipe: str) -> str:
    """Docker image built from a recipe folder."""
    return f"spider2v/{recipe}:latest"


@dataclass(frozen=True)
class Snapshot:
    name: str
    recipe: str
    ports: tuple[int, ...] = BASE_PORTS
    #: whether its environments have a screen; one without (``display: false``) is observed
    #: through its actions' output alone: no screenshots, trees or settle time
    display: bool = True

    @property
    def image(self) -> str:
        return image_name(self.recipe)


def recipes_dirs(environments_dir: Path = RECIPES_DIR) -> tuple[Path, ...]:
    """Where recipes and their tables lie: ``environments_dir`` (the built-in ``recipes/``), then
    each folder an extension registers in :data:`pytest_spider2v.registry.recipes_dirs`, by its
    name. So an application family outside this package adds its images, its snapshots and what
    they provide without copying this folder, and its recipes may name a built-in ``parent``."""
    registered = (registered_recipes_dirs.get(name) for name in registered_recipes_dirs.available())
    return tuple(dict.fromkeys([environments_dir, *registered]))


def recipe_dir(recipe: str, environments_dir: Path = RECIPES_DIR) -> Path:
    """A recipe's folder: the first of :func:`recipes_dirs` that holds it (in ``environments_dir``
    when none does, for the error that follows)."""
    return next((folder / recipe for folder in recipes_dirs(environments_dir) if (folder / recipe).is_dir()),
                environments_dir / recipe)


def recipe_tables(file_name: str, environments_dir: Path = RECIPES_DIR) -> tuple[Path, ...]:
    """The tables named ``file_name`` (``snapshots.yaml``, ``provides.yaml``): ``environments_dir``'s,
    then those of the registered folders that have one. A registered table holds entries only
    (``snapshots:``, ``families:``); the built-in table's other keys apply to them too."""
    added = (folder / file_name for folder in recipes_dirs(environments_dir)[1:])
    return (environments_dir / file_name, *(path for path in added if path.is_file()))


def _added_entries(path: Path, data: dict[str, Any], key: str) -> dict[str, Any]:
    """A registered table's entries under ``key``: the only key such a table may have."""
    unknown = set(data) - {key}
    if unknown:
        raise ValueError(f"{path}: an added table holds only {key!r}, not {sorted(unknown)}")
    return dict(data.get(key) or {})


def recipe_parent(recipe: str, environments_dir: Path = RECIPES_DIR) -> str | None:
    """The recipe a recipe's image is layered on (``parent:`` in its ``recipe.yaml``), if any.

    Application families (databases, Airflow, ...) are layers over the desktop, so changing one
    rebuilds only that family's image, and every family shares the desktop's layers on disk.
    """
    path = recipe_dir(recipe, environments_dir) / "recipe.yaml"
    if not path.is_file():
        return None
    parent = (yaml.safe_load(path.read_text()) or {}).get("parent")
    if parent is not None and not isinstance(parent, str):
        raise ValueError(f"{path}: parent must be a recipe name, got {parent!r}")
    return parent


def snapshot_entries(environments_dir: Path = RECIPES_DIR) -> dict[str, tuple[Path, Any]]:
    """Each snapshot's entry as written, with the table it is in, from every ``snapshots.yaml``
    (:func:`recipe_tables`; cached per file version). A name in two tables is an error: an
    extension adds snapshots, it never redefines one."""
    tables = recipe_tables("snapshots.yaml", environments_dir)
    return dict(_snapshot_entries(tuple((path, path.stat().st_mtime_ns) for path in tables)))


@lru_cache(maxsize=4)
def _snapshot_entries(tables: tuple[tuple[Path, int], ...]) -> dict[str, tuple[Path, Any]]:
    found: dict[str, tuple[Path, Any]] = {}
    for i, (path, _) in enumerate(tables):
        data = yaml.safe_load(path.read_text()) or {}
        entries = _added_entries(path, data, "snapshots") if i else (data.get("snapshots") or {})
        for name, entry in entries.items():
            if str(name) in found:
                raise ValueError(f"{path}: snapshot {name!r} is already in {found[str(name)][0]}")
            found[str(name)] = (path, entry)
    return found


def load_snapshots(environments_dir: Path = RECIPES_DIR) -> dict[str, Snapshot]:
    """Parse ``snapshots.yaml`` (and the registered folders' tables); entries are ``name: recipe``
    or ``name: {recipe, ports, display}``."""
    snapshots: dict[str, Snapshot] = {}
    for name, (path, entry) in snapshot_entries(environments_dir).items():
        if isinstance(entry, str):
            entry = {"recipe": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("recipe"), str):
            raise ValueError(f"{path}: snapshot {name!r} needs a recipe name, got {entry!r}")
        extra = [int(p) for p in entry.get("ports") or []]
        ports = tuple(dict.fromkeys([*BASE_PORTS, *extra]))
        display = entry.get("display", True)
        if not isinstance(display, bool):
            raise ValueError(f"{path}: snapshot {name!r}: display must be true or false, got {display!r}")
        snapshots[name] = Snapshot(name, entry["recipe"], ports, display)
    return snapshots


# -- what each image family provides (provides.yaml) ----------------------------------------------


def normalize_distribution(name: str) -> str:
    """A distribution's name as PyPI compares it (PEP 503): ``Scikit_Learn`` -> ``scikit-learn``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Family:
    """What one image family offers a task's scripts and code (its parent recipe's included)."""

    name: str
    programs: frozenset[str] = frozenset()
    #: "program subcommand ..." entries: a program listed here offers only these subcommands
    commands: frozenset[str] = frozenset()
    conda_envs: frozenset[str] = frozenset()
    #: the image's Python interpreters (a task's code may run in any of them)
    python: tuple[str, ...] = ()
    packages: frozenset[str] = frozenset()  #: what they import from, as normalized distribution names
    serves: frozenset[str] = frozenset()  #: hosts that answer inside the environment

    def subcommands(self, program: str) -> tuple[str, ...]:
        """The subcommands the family restricts ``program`` to (none: the whole program, if any)."""
        return tuple(sorted(c for c in self.commands if c.split()[0] == program))


@dataclass(frozen=True)
class Manifest:
    families: dict[str, Family]
    serves: frozenset[str]  #: hosts every family serves
    #: import name (or dotted prefix; ``*`` for one segment) -> the distributions that provide
    #: it, where they differ from the name (the first is the usual one)
    distributions: dict[str, tuple[str, ...]]
    #: a program (or "program subcommand") no image can have -> why, for the skip reason
    cannot_provide: dict[str, str] = field(default_factory=dict)

    def distributions_of(self, module: str) -> tuple[str, ...]:
        """What an import may come from: the longest listed prefix's entry, else its top name."""
        parts = module.split(".")
        for end in range(len(parts), 0, -1):
            prefix = ".".join(parts[:end])
            if prefix in self.distributions:
                return self.distributions[prefix]
            wildcard = ".".join([*parts[:end - 1], "*"])
            if end > 1 and wildcard in self.distributions:
                segment = normalize_distribution(parts[end - 1])
                return tuple(d.replace("*", segment) for d in self.distributions[wildcard])
        return (normalize_distribution(parts[0]),)


_LISTS = ("programs", "commands", "conda_envs", "serves")


def load_manifest(environments_dir: Path = RECIPES_DIR) -> Manifest:
    """Parse ``provides.yaml`` and the registered folders' (:func:`recipe_tables`; cached per file
    version). A family's entries add to its parent recipe's, as its image's layers add to the
    parent image."""
    tables = recipe_tables("provides.yaml", environments_dir)
    return _load_manifest(tuple((path, path.stat().st_mtime_ns) for path in tables))


@lru_cache(maxsize=4)
def _load_manifest(tables: tuple[tuple[Path, int], ...]) -> Manifest:
    path = tables[0][0]
    data = yaml.safe_load(path.read_text()) or {}
    entries: dict[str, Any] = dict(data.get("families") or {})
    for added, _ in tables[1:]:
        for name, entry in _added_entries(added, yaml.safe_load(added.read_text()) or {}, "families").items():
            if name in entries:
                raise ValueError(f"{added}: family {name!r} is in another provides.yaml already")
            entries[name] = entry
    serves = frozenset(str(h) for h in data.get("serves") or [])
    distributions = {str(k): tuple(normalize_distribution(str(d)) for d in (v if isinstance(v, list) else [v]))
                     for k, v in (data.get("distributions") or {}).items()}
    families: dict[str, Family] = {}

    def resolve(name: str, seen: tuple[str, ...] = ()) -> Family:
        if name in families:
            return families[name]
        entry = entries.get(name)
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: family {name!r} must be a mapping, got {entry!r}")
        unknown = set(entry) - {*_LISTS, "python", "packages"}
        if unknown:
            raise ValueError(f"{path}: family {name!r} has unknown keys {sorted(unknown)}")
        parent_name = recipe_parent(name, path.parent)
        if parent_name in seen:
            raise ValueError(f"{path}: recipe parents loop through {name!r}")
        parent = resolve(parent_name, (*seen, name)) if parent_name in entries else Family(parent_name or "", serves=serves)
        lists = {key: getattr(parent, key) | frozenset(str(v) for v in entry.get(key) or []) for key in _LISTS}
        for command in lists["commands"]:
            if len(command.split()) < 2:
                raise ValueError(f"{path}: family {name!r}: command {command!r} must be 'program subcommand ...'")
        python = tuple(dict.fromkeys([*parent.python, *(str(p) for p in entry.get("python") or [])]))
        packages = parent.packages | {normalize_distribution(str(p)) for p in entry.get("packages") or []}
        families[name] = Family(name, python=python, packages=frozenset(packages), **lists)
        return families[name]

    for name in entries:
        resolve(str(name))
    cannot_provide = {str(k): str(v) for k, v in (data.get("cannot_provide") or {}).items()}
    return Manifest(families, serves, distributions, cannot_provide)
