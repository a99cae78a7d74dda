"""Static checks of solution cells, shared by the tests of reference solutions."""

from __future__ import annotations

import ast
import builtins


def unbound_names(tree: ast.Module) -> set[str]:
    """Names a cell reads but never binds: each cell runs in a fresh interpreter, so a name
    bound by an earlier cell is not there."""
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.arg)):
            bound.add(node.name if isinstance(node, ast.FunctionDef) else node.arg)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound
