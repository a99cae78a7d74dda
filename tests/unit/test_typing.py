"""The extension points stay typed and mypy keeps reading all of the package (issue 39): a
registry holding ``Any`` accepts anything, and a room left out of mypy's ``files`` (or silenced by
an override) drops out of ``tox -e type`` without anyone seeing it."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pytest_spider2v"
PACKAGE_NAME = PACKAGE.name


def registries_with_any(source: str) -> list[str]:
    """The registries (``name: Registry[...] = Registry(...)``) a module declares with ``Any``
    anywhere in their type, or with no type argument at all."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "Registry"):
            continue
        annotation = ast.unparse(node.annotation)
        if "Any" in annotation or not annotation.startswith("Registry["):
            found.append(f"{ast.unparse(node.target)}: {annotation}")
    return found


def names_any(source: str) -> bool:
    """Whether a module uses ``Any`` (``Any``, ``typing.Any``), in code or in annotations."""
    return any((isinstance(node, ast.Name) and node.id == "Any")
               or (isinstance(node, ast.Attribute) and node.attr == "Any")
               or (isinstance(node, ast.alias) and node.name == "Any")
               for node in ast.walk(ast.parse(source)))


def unchecked_rooms(mypy: Mapping[str, Any]) -> list[str]:
    """What a ``[tool.mypy]`` table leaves out of the package: ``files`` not naming the whole
    package, an exclusion of anything but the task solutions, an override that ignores a module's
    errors altogether."""
    problems = []
    if PACKAGE_NAME not in (mypy.get("files") or []):
        problems.append(f"files does not name the whole package ({PACKAGE_NAME})")
    excluded = mypy.get("exclude") or []
    for pattern in [excluded] if isinstance(excluded, str) else excluded:
        if pattern != f"^{PACKAGE_NAME}/solutions/":
            problems.append(f"exclude {pattern!r}")
    for override in mypy.get("overrides") or []:
        if override.get("ignore_errors"):
            problems.append(f"ignore_errors for {override.get('module')}")
    return problems


def mypy_config() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]


def test_no_registry_of_the_package_holds_any() -> None:
    found = {str(path.relative_to(REPO)): registries_with_any(path.read_text(encoding="utf-8"))
             for path in PACKAGE.rglob("*.py") if "Registry(" in path.read_text(encoding="utf-8")}
    assert "pytest_spider2v/registry.py" in found and "pytest_spider2v/formats/mind2web/answerers.py" in found
    assert {path: names for path, names in found.items() if names} == {}


def test_the_registry_module_names_no_any() -> None:
    assert not names_any((PACKAGE / "registry.py").read_text(encoding="utf-8"))


def test_a_registry_of_any_or_untyped_is_found() -> None:
    source = ("from typing import Any\n"
              "emulators: Registry[Any] = Registry('emulator')\n"
              "agents: Registry[Callable[..., Any]] = Registry('agent')\n"
              "formats: Registry = Registry('task format')\n"
              "metrics: Registry[Metric] = Registry('metric')\n")
    assert registries_with_any(source) == ["emulators: Registry[Any]", "agents: Registry[Callable[..., Any]]",
                                           "formats: Registry"]
    assert names_any(source) and names_any("import typing\nx: typing.Any = 1\n") and not names_any("x: int = 1\n")


def test_mypy_reads_the_whole_package() -> None:
    assert unchecked_rooms(mypy_config()) == []


def test_a_room_left_out_of_mypy_is_found() -> None:
    narrowed = {"files": ["pytest_spider2v/plugin", "pytest_spider2v/run"], "exclude": ["^pytest_spider2v/getters/"],
                "overrides": [{"module": "pytest_spider2v.metrics.*", "ignore_errors": True}]}
    assert unchecked_rooms(narrowed) == [
        "files does not name the whole package (pytest_spider2v)",
        "exclude '^pytest_spider2v/getters/'",
        "ignore_errors for pytest_spider2v.metrics.*",
    ]
