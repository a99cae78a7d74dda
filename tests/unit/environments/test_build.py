"""Recipe layering for ``spider2v-build``: parents come first, cycles and bad files are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_spider2v.environments.build import BuildError, resolve_recipes
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.snapshots import load_snapshots, recipe_parent


def make_recipes(root: Path, parents: dict[str, str | None], snapshots: str) -> Path:
    for recipe, parent in parents.items():
        (root / recipe).mkdir(parents=True)
        (root / recipe / "Dockerfile").write_text("ARG BASE\nFROM ${BASE}\n")
        if parent:
            (root / recipe / "recipe.yaml").write_text(f"parent: {parent}\n")
    (root / "snapshots.yaml").write_text(snapshots)
    return root


def test_a_family_is_built_after_the_recipe_it_layers_on(tmp_path: Path) -> None:
    root = make_recipes(tmp_path, {"desktop": None, "airflow": "desktop", "tools": "airflow"},
                        "snapshots:\n  flows: tools\n  desktop: desktop\n")
    assert resolve_recipes(["flows"], root) == ["desktop", "airflow", "tools"]
    assert resolve_recipes([], root) == ["desktop", "airflow", "tools"]  # every snapshot's recipe, once
    assert resolve_recipes(["desktop"], root) == ["desktop"]


def test_a_parent_cycle_is_an_error_naming_the_chain(tmp_path: Path) -> None:
    root = make_recipes(tmp_path, {"a": "b", "b": "a"}, "snapshots:\n  x: a\n")
    with pytest.raises(BuildError, match="parent cycle a -> b -> a"):
        resolve_recipes(["x"], root)


def test_a_parent_that_is_not_a_name_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "recipe.yaml").write_text("parent: [desktop]\n")
    with pytest.raises(ValueError, match="recipe.yaml: parent must be a recipe name"):
        recipe_parent("odd", tmp_path)


def test_every_project_snapshot_has_a_recipe_lineage_from_the_desktop_or_its_own_root() -> None:
    """A snapshot with a screen is built on the desktop; one without (``display: false``) is a
    recipe of its own on the Debian base."""
    for snapshot in load_snapshots().values():
        lineage = resolve_recipes([snapshot.name], RECIPES_DIR)
        root = "desktop" if snapshot.display else snapshot.recipe
        assert lineage[0] == root and lineage[-1] == snapshot.recipe
        assert all((RECIPES_DIR / recipe / "Dockerfile").is_file() for recipe in lineage)


def test_sibling_families_build_side_by_side_after_their_parent(tmp_path: Path, monkeypatch) -> None:
    import threading
    import time

    from pytest_spider2v.environments import build

    root = make_recipes(tmp_path, {"desktop": None, "airflow": "desktop", "superset": "desktop"},
                        "snapshots:\n  a: airflow\n  s: superset\n")
    spans: dict[str, tuple[float, float]] = {}
    lock = threading.Lock()
    # The two siblings meet at a barrier: built one after the other, the first would wait alone
    # until the timeout and break it, so the test proves concurrency without relying on timing.
    siblings = threading.Barrier(2, timeout=30)

    def fake_build(client, recipe, base, environments_dir, force, nocache):
        started = time.monotonic()
        if recipe != "desktop":
            siblings.wait()
        with lock:
            spans[recipe] = (started, time.monotonic())
        return {"image": f"spider2v/{recipe}:latest", "base": base, "seconds": 0.2, "size_bytes": 1, "reused": False}

    monkeypatch.setattr(build, "build_recipe", fake_build)
    figures = build.build_all(None, resolve_recipes([], root), "spider2v/base:bookworm", root, jobs=2)
    assert figures["airflow"]["base"] == figures["superset"]["base"] == "spider2v/desktop:latest"
    assert figures["desktop"]["base"] == "spider2v/base:bookworm"
    assert min(spans["airflow"][0], spans["superset"][0]) >= spans["desktop"][1]  # after the parent
