"""The guest's solution helper modules (:mod:`pytest_spider2v.guest.solution_helpers`), shipped in
front of the solution cell that imports them.

A solution cell uses a helper by importing it (``from airflow_ui import click``); the oracle agent
puts the module's source in front of the cell's code, installed in ``sys.modules`` under its name.
So every cell stays one self-contained action, run by a fresh guest interpreter through the same
path as an LLM agent's code: nothing is written into the guest or baked into an image, and a wrong
solution that drops or reorders cells cannot lose a helper. A traceback names ``airflow_ui.py``
and the line in the module's own file. A helper module may import another (``terminal`` uses
``desktop``'s window functions): that one is shipped first.
"""

from __future__ import annotations

import ast
from functools import cache

from pytest_spider2v.environments.locations import SOLUTION_HELPERS_DIR


@cache
def helper_sources() -> dict[str, str]:
    """Module name -> source of every helper module shipped with the package."""
    return {path.stem: path.read_text(encoding="utf-8")
            for path in sorted(SOLUTION_HELPERS_DIR.glob("*.py")) if path.name != "__init__.py"}


def imported_helpers(code: str) -> list[str]:
    """The helper modules ``code`` imports, in the order it first names them, each preceded by
    the helper modules it imports itself (so each is installed before a module that needs it).
    Code that does not parse gets none: the guest reports its syntax error as it would for any
    agent."""
    order: dict[str, None] = {}
    for name in _direct_helpers(code):
        for needed in _helpers_of(name, ()):
            order.setdefault(needed)
    return list(order)


def _direct_helpers(code: str) -> list[str]:
    """The helper modules ``code`` itself imports, in the order it first names them."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module.split(".")[0])
    known = helper_sources()
    return [name for name in dict.fromkeys(names) if name in known]


def _helpers_of(name: str, path: tuple[str, ...]) -> list[str]:
    """``name`` after the helper modules it needs, depth first; a module that imports one that
    leads back to it is a mistake in the package, reported by name."""
    if name in path:
        raise ImportError(f"solution helper modules import each other in a circle: {' -> '.join((*path, name))}")
    needed: list[str] = []
    for other in _direct_helpers(helper_sources()[name]):
        needed += _helpers_of(other, (*path, name))
    return [*needed, name]


def with_helpers(code: str) -> str:
    """``code`` preceded by the helper modules it imports (two lines each: a comment and the
    installation), ready for the guest."""
    lines = []
    for name in imported_helpers(code):
        source = helper_sources()[name]
        lines.append(f"# {name}: a reference-solution helper module (pytest_spider2v.guest.solution_helpers)")
        lines.append(f"import sys, types; sys.modules[{name!r}] = types.ModuleType({name!r}); "
                     f"exec(compile({source!r}, {name + '.py'!r}, 'exec'), sys.modules[{name!r}].__dict__)")
    return "\n".join([*lines, code])
