"""Task fingerprints: one digest of everything a task's ``--validate`` checks depend on that is
not the plugin core, so CI can re-validate only the tasks whose inputs changed (see
:mod:`.selection`).

A fingerprint covers four parts:

* **the task's files**: a project task's whole folder; a checkout task's folder (its JSON and
  data) plus the host files its steps and getters name, relative to the checkout;
* **its environment**: the recipe folder of its snapshot's image and of every recipe that image
  is built on (``parent:`` in ``recipe.yaml``), its entry and the limits in ``snapshots.yaml``,
  and the guest server, which every image carries;
* **the code it uses**: each setup step, getter and metric it names, looked up in the
  registries: the object's source and, recursively, the source of the functions and classes of
  the extensions that it references by name (the names its code objects read, resolved in its
  module, imports inside functions included) and the values of plain module constants. So a
  change to one metric changes the tasks that use it, or use something that calls it, and no
  others. Source is read as Python reads it: comments, layout and the functions' type
  annotations are left out (mypy reads annotations, the run never does), so typing or
  reformatting an extension re-validates nothing;
* **its solutions**: the reference (and wrong) solution files, the files they are ``based-on``
  (whose cells they play), and the guest's solution helper modules they import.

Nothing is hashed by where it lies in the package: code by its source (a function or class by its
qualified name and text, a constant by its name and value), files relative to their folder. So
moving a module, a helper or the recipes folder changes no fingerprint; changing what a task's
checks run does.

The core (the plugin, the run, the providers, ...) is deliberately left out: a change there would
re-validate everything, and the end-to-end tests gate it; only the helpers steps and getters share
(:data:`SHARED_HELPERS`) are followed, as they were when they lay in ``steps/``. So are third-party libraries. An
extension module imported inside a function (as heavy helpers are) is imported to be followed;
only ``--validate`` runs fingerprint, and their checks import those modules anyway.

Paths are hashed relative to their folder, never absolutely, so a fingerprint is the same in
every checkout of the same commit.
"""

from __future__ import annotations

import ast
import dis
import functools
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import os
import re
import sys
import textwrap
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml

from pytest_spider2v.environments.locations import GUEST_SERVER_DIR, RECIPES_DIR, SOLUTION_HELPERS_DIR
from pytest_spider2v.environments.snapshots import load_snapshots, recipe_dir, recipe_parent, snapshot_entries
from pytest_spider2v.registry import EXTENSIONS_GROUP, Registry, getters, metrics, near_misses, setup_steps
from pytest_spider2v.tasks.model import BUILT_IN_LAYOUTS, Task
from pytest_spider2v.tasks.solution_format import base_files
from pytest_spider2v.validate.checks import CHECKS

#: Changes whenever what a fingerprint covers changes, so old states stop matching.
FORMAT = "spider2v-fingerprint/4"
#: Never part of anything a task depends on: caches that come and go with runs.
IGNORED_NAMES = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
#: Longest string in a task's parameters that may be a host path (longer ones are scripts).
MAX_PATH_LENGTH = 512
IMPORT = re.compile(r"^\s*(?:from\s+(\w+)|import\s+([\w\s,.]+?))(?:\s+import\b|\s*(?:#.*)?$)", re.MULTILINE)
DIGEST_LENGTH = 32
#: The package whose own imports a function's hashed source leaves out.
OWN_PACKAGE = __name__.split(".")[0]


def _sha(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()


def tree_digest(root: Path) -> str:
    """Content digest of a file or folder: relative paths, executable bits and bytes."""
    if root.is_file():
        return _sha(str(os.access(root, os.X_OK)), root.read_bytes())
    digest = hashlib.sha256()
    for path in sorted(_files(root)):
        digest.update(f"\0{path.relative_to(root).as_posix()}\0{os.access(path, os.X_OK)}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _files(root: Path) -> Iterator[Path]:
    # Links followed: a recipe may link another recipe's folder, and its build context copies
    # what the link points at (dagster's services/mariadb).
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_NAMES]
        for name in filenames:
            if not name.endswith(".pyc"):
                yield Path(dirpath, name)


#: Core modules whose code fingerprints follow like an extension's: the helpers steps and getters
#: share, moved out of ``steps/`` so that getters import no step. Code is hashed by its text,
#: wherever it lies, so following them here kept every fingerprint as it was before the move.
SHARED_HELPERS = ("pytest_spider2v.run.task_helpers",)


def extension_packages() -> tuple[str, ...]:
    """The modules of the ``pytest_spider2v`` entry points: the built-in extensions and any
    installed one. Their code is what fingerprints follow; the core is not among them."""
    return tuple(sorted({ep.value.partition(":")[0] for ep in importlib.metadata.entry_points(group=EXTENSIONS_GROUP)}))


def solution_files(task: Task) -> list[Path]:
    """The solution files the task's checks replay: a project task's ``solution.py`` and
    ``wrong_solution.py``, a checkout task's reference solution written for this project (a task
    format's made solutions are no files: :meth:`Fingerprinter._solutions` hashes their text)."""
    if task.layout != "project":
        return [task.solution] if isinstance(task.solution, Path) else []
    return [task.folder / c.solution for c in CHECKS if c.solution and (task.folder / c.solution).is_file()]


class CodeDigests:
    """Digests of registered objects: their source and that of the extension code they reach.

    ``packages`` are the module prefixes whose functions and classes are followed (by default
    :func:`extension_packages` and :data:`SHARED_HELPERS`); an object's own module is always followed. Results are cached:
    a session fingerprints hundreds of tasks over a few dozen metrics.
    """

    def __init__(self, packages: Iterable[str] | None = None) -> None:
        self.packages = tuple((*extension_packages(), *SHARED_HELPERS) if packages is None else packages)
        self._cache: dict[int, str] = {}

    def digest(self, obj: Any) -> str:
        key = id(obj)
        if key not in self._cache:
            self._cache[key] = _sha(json.dumps(self.closure(obj)))
        return self._cache[key]

    def closure(self, root: Any) -> list[str]:
        """The sources of the root and of everything it reaches, and ``NAME = value`` of the plain
        constants it reads, sorted: what the code is, never which module holds it."""
        root = inspect.unwrap(root)
        home = getattr(root, "__module__", None) or ""
        visited: set[tuple[str, str]] = set()
        found: set[str] = set()
        todo = [root]
        while todo:
            obj = todo.pop()
            where = (obj.__module__, obj.__qualname__)
            if where in visited:
                continue
            visited.add(where)
            found.add(_source(obj))
            for ref, value in self._references(obj):
                if (target := self._followed(value, home)) is not None:
                    todo.append(target)
                elif (text := _plain(value)) is not None:
                    found.add(f"{ref.rpartition(':')[2]} = {text}")
        return sorted(found)

    def _followed(self, value: Any, home: str) -> Any | None:
        """The function or class to follow, if ``value`` is one defined in followed code."""
        if isinstance(value, functools.partial):
            value = value.func
        try:
            value = inspect.unwrap(value)
        except ValueError:  # a cycle of __wrapped__
            return None
        if not isinstance(value, (types.FunctionType, type)):
            return None
        module = getattr(value, "__module__", None) or ""
        return value if module == home or self._in_packages(module) else None

    def _in_packages(self, module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in self.packages)

    def _references(self, obj: Any) -> Iterator[tuple[str, Any]]:
        """(``module:name``, value) of every global, closure value, imported name and container
        member that the object's code reads."""
        module = sys.modules.get(obj.__module__)
        namespace = vars(module) if module is not None else {}
        if isinstance(obj, type):
            yield from ((f"{b.__module__}:{b.__qualname__}", b) for b in obj.__bases__)
            functions = [f for member in vars(obj).values() for f in _member_functions(member)]
        else:
            functions = [obj]
        for function in functions:
            namespace = getattr(function, "__globals__", namespace)
            here = namespace.get("__name__", obj.__module__)
            for i, cell in enumerate(function.__closure__ or ()):
                try:
                    yield from _with_members(f"{function.__module__}:{function.__qualname__}<closure {i}>",
                                             cell.cell_contents)
                except ValueError:  # an empty cell
                    continue
            for code in _codes(function.__code__):
                names = sorted(set(code.co_names))
                modules = [namespace[n] for n in names if isinstance(namespace.get(n), types.ModuleType)]
                modules += self._imported_modules(code, namespace.get("__package__") or "")
                for name in names:
                    if name in namespace:
                        yield from _with_members(f"{here}:{name}", namespace[name])
                    for mod in modules:
                        if self._in_packages(mod.__name__) and (value := self._attribute(mod, name)) is not None:
                            yield from _with_members(f"{mod.__name__}:{name}", value)

    def _imported_modules(self, code: types.CodeType, package: str) -> list[types.ModuleType]:
        """Followed modules a function imports in its body (heavy modules are imported lazily
        in extensions, so their names are no globals)."""
        found = []
        consts: list[Any] = []
        for ins in dis.get_instructions(code):
            if ins.opname == "IMPORT_NAME":
                level = consts[-2] if len(consts) >= 2 and isinstance(consts[-2], int) else 0
                try:
                    name = importlib.util.resolve_name("." * level + ins.argval, package) if level else ins.argval
                except ImportError:
                    continue
                if self._in_packages(name):
                    found.append(importlib.import_module(name))
            consts = [*consts, ins.argval][-2:] if ins.opname == "LOAD_CONST" else []
        return found

    def _attribute(self, module: types.ModuleType, name: str) -> Any | None:
        """``module.name``, importing it when it is a submodule not imported yet."""
        if hasattr(module, name):
            return getattr(module, name)
        if hasattr(module, "__path__"):
            full = f"{module.__name__}.{name}"
            if importlib.util.find_spec(full) is not None:
                return importlib.import_module(full)
        return None


def _member_functions(member: Any) -> list[types.FunctionType]:
    """The functions behind a class attribute (methods, static/class methods, properties)."""
    if isinstance(member, (staticmethod, classmethod)):
        member = member.__func__
    if isinstance(member, property):
        return [f for f in (member.fget, member.fset, member.fdel) if isinstance(f, types.FunctionType)]
    return [member] if isinstance(member, types.FunctionType) else []


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """A code object and the ones nested in it (lambdas, comprehensions, inner functions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _with_members(name: str, value: Any, depth: int = 0) -> Iterator[tuple[str, Any]]:
    """The value and, inside dicts, lists, tuples and sets, the functions and classes it holds
    (dispatch tables such as ``{rule: (check, keys)}``)."""
    yield name, value
    if isinstance(value, dict):
        members: Iterable[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, (list, tuple, set, frozenset)):
        members = value
    else:
        return
    for member in members:
        if isinstance(member, (types.FunctionType, type)):
            yield f"{name}[]", member
        elif depth < 3 and isinstance(member, (dict, list, tuple, set, frozenset)):
            yield from (pair for pair in _with_members(f"{name}[]", member, depth + 1) if pair[1] is not member)


def _source(obj: Any) -> str:
    """The code of a function or class as Python reads it: comments and layout left out, and so
    are its imports of the extensions' own modules (where they lie is no part of what the code
    does; what they bring is followed by :class:`CodeDigests`) and the type annotations of its
    functions (read by mypy, never by the run: typing an extension re-validates no task)."""
    try:
        text = inspect.getsource(obj)
    except (OSError, TypeError):  # defined at run time; its name is all there is
        return f"<no source: {obj.__qualname__}>"
    try:
        tree = ast.parse(textwrap.dedent(text))
    except SyntaxError:  # a lambda inside an expression: its line as it is
        return text
    return ast.unparse(_AsRun().visit(tree))


class _AsRun(ast.NodeTransformer):
    """Drops ``from .x import y`` and ``from pytest_spider2v... import y`` (and ``import
    pytest_spider2v...``), leaving a ``pass`` where a block would be left empty; and drops the
    annotations of functions: their parameters' and return's, and their local variables'
    (``x: T = v`` becomes ``x = v``, a bare ``x: T`` goes). A class body's annotations stay:
    there they make fields (a dataclass's, a NamedTuple's), which the run does read."""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._without_annotations(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._without_annotations(node)

    def _without_annotations(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        node.returns = None
        arguments = node.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                    *filter(None, (arguments.vararg, arguments.kwarg))]:
            arg.annotation = None
        node.body = _locals(node.body)
        return self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST | None:
        own = node.level > 0 or (node.module or "").split(".")[0] == OWN_PACKAGE
        return None if own else node

    def visit_Import(self, node: ast.Import) -> ast.AST | None:
        return None if all(alias.name.split(".")[0] == OWN_PACKAGE for alias in node.names) else node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if isinstance(getattr(node, "body", None), list) and not getattr(node, "body"):
            setattr(node, "body", [ast.Pass()])
        return node


def _locals(statements: list[ast.stmt]) -> list[ast.stmt]:
    """A function's block without its variable annotations, in its nested blocks too (not in a
    nested class, whose annotations are fields): ``x: T = v`` becomes ``x = v``, a bare ``x: T``
    goes (an emptied block gets its ``pass`` from :meth:`_AsRun.generic_visit`)."""
    kept: list[ast.stmt] = []
    for statement in statements:
        if isinstance(statement, ast.AnnAssign):
            if statement.value is not None:
                kept.append(ast.copy_location(ast.Assign(targets=[statement.target], value=statement.value),
                                              statement))
            continue
        if not isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for block in ("body", "orelse", "finalbody"):
                if isinstance(inner := getattr(statement, block, None), list):
                    setattr(statement, block, _locals(inner))
            for part in [*getattr(statement, "handlers", []), *getattr(statement, "cases", [])]:
                part.body = _locals(part.body)
        kept.append(statement)
    return kept


def _plain(value: Any, depth: int = 0) -> str | None:
    """A stable text for plain data (numbers, strings, patterns, containers of them), None for
    anything else (its repr might hold a memory address)."""
    if depth > 4:
        return None
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return repr(value)
    if isinstance(value, re.Pattern):
        return f"re.compile({value.pattern!r}, {value.flags})"
    if isinstance(value, (types.FunctionType, type)):
        return value.__qualname__
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v, depth + 1) for v in value]
        if any(item is None for item in items):
            return None
        texts = [item or "" for item in items]
        return f"{type(value).__name__}({', '.join(texts if isinstance(value, (list, tuple)) else sorted(texts))})"
    if isinstance(value, dict):
        pairs = [(_plain(k, depth + 1), _plain(v, depth + 1)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(sorted(f"{k}: {v}" for k, v in pairs)) + "}"
    return None


class Fingerprinter:
    """Fingerprints of tasks, sharing the digests of recipes and code across a session."""

    def __init__(self, environments_dir: Path = RECIPES_DIR, *,
                 steps: Registry[Any] = setup_steps, getters: Registry[Any] = getters,
                 metrics: Registry[Any] = metrics, near_misses: Registry[Any] = near_misses,
                 packages: Iterable[str] | None = None,
                 helpers_dir: Path = SOLUTION_HELPERS_DIR, guest_dir: Path = GUEST_SERVER_DIR) -> None:
        self.environments_dir = environments_dir
        self.helpers_dir = helpers_dir
        self.guest_dir = guest_dir
        self.registries = {"setup step": steps, "getter": getters, "metric": metrics}
        self.near_misses = near_misses
        self.code = CodeDigests(packages)
        self._limits = (yaml.safe_load((environments_dir / "snapshots.yaml").read_text()) or {}).get("limits")
        self._entries = {name: entry for name, (_, entry) in snapshot_entries(environments_dir).items()}
        self._snapshots = load_snapshots(environments_dir)
        self._digests: dict[str, str] = {}
        self._helpers: dict[str, list[Path]] | None = None

    def fingerprint(self, task: Task) -> str:
        return _sha(json.dumps(self.parts(task), sort_keys=True))[:DIGEST_LENGTH]

    def parts(self, task: Task) -> dict[str, Any]:
        """What the fingerprint hashes, one digest per input: handy to see *what* changed."""
        return {
            "format": FORMAT,
            "task": self._task_files(task),
            "environment": self._environment(task.spec.snapshot),
            "code": self._code(task),
            "solutions": self._solutions(task),
        }

    def family(self, task: Task) -> str:
        """The image family (recipe) a task runs in; an unknown snapshot is its own family."""
        snapshot = self._snapshots.get(task.spec.snapshot)
        return snapshot.recipe if snapshot is not None else task.spec.snapshot

    # -- the parts ------------------------------------------------------------------------------
    def _task_files(self, task: Task) -> dict[str, str]:
        """A task file's folder; for a task format's file of many tasks (a questions file beside
        its tables), the task's own document instead, so one question's change is its own."""
        if task.layout in BUILT_IN_LAYOUTS:
            files = {".": tree_digest(task.folder)}
        else:
            files = {"task": _sha(task.spec.model_dump_json()), "facets": _sha(json.dumps(task.facets, sort_keys=True))}
        root = task.root.resolve()  # as the paths are: a checkout reached through a link keys the same
        for path in self._named_host_paths(task):
            files[os.path.relpath(path, root)] = tree_digest(path)
        return files

    def _named_host_paths(self, task: Task) -> list[Path]:
        """Host files (or folders) the task names relative to its root, outside its folder:
        shared data of a checkout (``evaluation_examples/examples/<app>/all_databases.sql``); for
        a task format's task, whose folder is not hashed, inside it too (a question's table)."""
        folder = task.folder.resolve() if task.layout in BUILT_IN_LAYOUTS else None
        root = task.root.resolve()
        found: dict[Path, None] = {}
        for text in _strings([s.model_dump() for s in task.spec.config], task.spec.evaluator.model_dump()):
            if not text or len(text) > MAX_PATH_LENGTH or "\n" in text or text.startswith(("/", "~")):
                continue
            try:
                path = (task.root / text).resolve()
                is_file, is_dir = path.is_file(), path.is_dir()
            except (OSError, ValueError):  # not a path at all (a name too long, a NUL)
                continue
            if folder is not None and (path == folder or folder in path.parents):
                continue  # hashed with the folder
            if is_file or (is_dir and root in path.parents and (folder is None or path not in folder.parents)):
                found[path] = None
        return sorted(found)

    def _environment(self, snapshot: str) -> str:
        if snapshot not in self._digests:
            parts = [json.dumps([self._limits, self._entries.get(snapshot)], sort_keys=True, default=str)]
            recipe: str | None = self._snapshots[snapshot].recipe if snapshot in self._snapshots else None
            seen: set[str] = set()
            while recipe is not None and recipe not in seen:
                seen.add(recipe)
                folder = recipe_dir(recipe, self.environments_dir)
                parts.append(f"{recipe}:{tree_digest(folder) if folder.is_dir() else 'missing'}")
                recipe = recipe_parent(recipe, self.environments_dir)
            parts.append(f"guest:{self._guest()}")
            self._digests[snapshot] = _sha(*parts)
        return self._digests[snapshot]

    def _guest(self) -> str:
        if "guest" not in self._digests:
            self._digests["guest"] = tree_digest(self.guest_dir)
        return self._digests["guest"]

    def _code(self, task: Task) -> dict[str, str]:
        out: dict[str, str] = {}
        for kind, name in used_names(task):
            registry = self.registries[kind]
            entry = registry.entry(name) if name in registry else None
            if entry is None or entry.obj is None:
                out[f"{kind} {name}"] = f"unavailable: {entry.unavailable if entry else 'unknown'}"
            else:
                out[f"{kind} {name}"] = self.code.digest(entry.obj)
            maker = self.near_misses.entry(name) if kind == "metric" and name in self.near_misses else None
            if maker is not None and maker.obj is not None:  # the near-miss check's verdict depends on it
                out[f"near-miss maker {name}"] = self.code.digest(maker.obj)
        return out

    def _solutions(self, task: Task) -> dict[str, str]:
        out: dict[str, str] = {name: _sha(text) for name, text in task.made_solutions.items()}
        todo = solution_files(task)
        while todo:
            path = todo.pop()
            key = path.name if path.parent == task.folder else f"{path.parent.name}/{path.name}"
            if key in out:
                continue
            out[key] = tree_digest(path)
            text = path.read_text(encoding="utf-8", errors="replace")
            # a solution written as the changes to another plays that one's cells too
            todo.extend(path.parent / name for name in base_files(text) if (path.parent / name).is_file())
            for name in imported_modules(text):
                todo.extend(self.helper_modules().get(name, []))
        return out

    def helper_modules(self) -> dict[str, list[Path]]:
        """Module name -> its file among the guest's solution helpers: what a solution's
        ``from airflow_ui import click`` means."""
        if self._helpers is None:
            self._helpers = {path.stem: [path] for path in sorted(self.helpers_dir.glob("*.py"))
                             if path.name != "__init__.py"}
        return self._helpers


def imported_modules(source: str) -> list[str]:
    """Top-level module names a solution's cells import (read as text: a cell may not parse)."""
    names: list[str] = []
    for match in IMPORT.finditer(source):
        if match.group(1):
            names.append(match.group(1))
        else:
            names += [part.split()[0].split(".")[0] for part in match.group(2).split(",") if part.strip()]
    return list(dict.fromkeys(names))


def used_names(task: Task) -> list[tuple[str, str]]:
    """(registry kind, name) of every setup step, getter and metric the task names."""
    ev = task.spec.evaluator
    named = [("setup step", s.type) for s in [*task.spec.config, *ev.postconfig]]
    named += [("metric", f) for f in (ev.func if isinstance(ev.func, list) else [ev.func]) if f != "infeasible"]
    for slot in (ev.result, ev.expected):
        named += [("getter", g.type) for g in (slot if isinstance(slot, list) else [slot]) if g is not None]
    return list(dict.fromkeys(named))


def _strings(*values: Any) -> Iterator[str]:
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            yield from _strings(*value.values())
        elif isinstance(value, (list, tuple)):
            yield from _strings(*value)

