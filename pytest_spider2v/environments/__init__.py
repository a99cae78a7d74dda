"""The environments: image recipes, the snapshot table, and (in :mod:`.build`) the command that
builds them.

Each folder here is a recipe (a Dockerfile and what it copies) whose image is
``spider2v/<recipe>:latest``. Tasks name a snapshot (``desktop``, ``excel``, ...);
``snapshots.yaml`` beside this file maps each to a recipe, in one place, so that the providers
and the build command can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

#: The folder holding ``snapshots.yaml`` and one sub-folder per recipe: this package's own.
ENVIRONMENTS_DIR = Path(__file__).resolve().parent
#: Guest ports every environment publishes: the guest server and Chromium DevTools.
BASE_PORTS: tuple[int, ...] = (5000, 9222)


def image_name(recipe: str) -> str:
    """Docker image built from a recipe folder."""
    return f"spider2v/{recipe}:latest"


@dataclass(frozen=True)
class Snapshot:
    name: str
    recipe: str
    ports: tuple[int, ...] = BASE_PORTS

    @property
    def image(self) -> str:
        return image_name(self.recipe)


def recipe_parent(recipe: str, environments_dir: Path = ENVIRONMENTS_DIR) -> str | None:
    """The recipe a recipe's image is layered on (``parent:`` in its ``recipe.yaml``), if any.

    Application families (databases, Airflow, ...) are layers over the desktop, so changing one
    rebuilds only that family's image, and every family shares the desktop's layers on disk.
    """
    path = environments_dir / recipe / "recipe.yaml"
    if not path.is_file():
        return None
    parent = (yaml.safe_load(path.read_text()) or {}).get("parent")
    if parent is not None and not isinstance(parent, str):
        raise ValueError(f"{path}: parent must be a recipe name, got {parent!r}")
    return parent


def load_snapshots(environments_dir: Path = ENVIRONMENTS_DIR) -> dict[str, Snapshot]:
    """Parse ``snapshots.yaml``; entries are ``name: recipe`` or ``name: {recipe, ports}``."""
    path = environments_dir / "snapshots.yaml"
    data = yaml.safe_load(path.read_text()) or {}
    snapshots: dict[str, Snapshot] = {}
    for name, entry in (data.get("snapshots") or {}).items():
        if isinstance(entry, str):
            entry = {"recipe": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("recipe"), str):
            raise ValueError(f"{path}: snapshot {name!r} needs a recipe name, got {entry!r}")
        extra = [int(p) for p in entry.get("ports") or []]
        ports = tuple(dict.fromkeys([*BASE_PORTS, *extra]))
        snapshots[str(name)] = Snapshot(str(name), entry["recipe"], ports)
    return snapshots
