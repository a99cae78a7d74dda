"""Reading Python source for what it needs: the packages it imports, the hosts its string
literals name and the library calls that download data; and what it makes: the modules it
writes, whether it executes notebooks.

The source is parsed (:mod:`ast`), so comments and docstrings are not needs, imports guarded by
``except ImportError`` or ``if TYPE_CHECKING:`` are optional, and a host in an Airflow DAG's task
code counts only for the DAGs that run it. Code that does not parse (Python 2, templates) is read
line by line instead.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import warnings
from pathlib import PurePosixPath

from pytest_spider2v.tasks.needs.facts import Facts, Need, hosts

#: Packages whose import means the code executes notebooks.
NOTEBOOK_EXECUTORS = frozenset({"papermill", "nbclient"})
#: An import statement, for code that does not parse (see :func:`_python_fallback`): a ``from``
#: import's module and names (in parentheses, over several lines), or an ``import``'s modules.
IMPORT_LINE = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+(\([^)]*\)|[\w.*, ]+)|import\s+([\w., ]+))",
                         re.MULTILINE)

#: Library calls that download their data from the internet, by qualified name (``fnmatch``
#: patterns, the first match wins), and the host they fetch from. No URL is written in the
#: task's code, yet ``fetch_california_housing()`` fails offline just the same.
DATA_DOWNLOADS: dict[str, str] = {
    "sklearn.datasets.fetch_openml": "api.openml.org",
    "sklearn.datasets.fetch_*": "ndownloader.figshare.com",
    "seaborn.load_dataset": "raw.githubusercontent.com",
    "nltk.download": "raw.githubusercontent.com",
    "keras.datasets.*.load_data": "storage.googleapis.com",
    "tensorflow.keras.datasets.*.load_data": "storage.googleapis.com",
}


def read_python(source: str, first_line: int, facts: Facts, where: str = "line",
                aliases: dict[str, str] | None = None) -> None:
    """Imports (not optional ones), URL hosts in string literals (not docstrings) and calls of
    :data:`DATA_DOWNLOADS`. ``aliases`` (local name -> qualified name of what it was imported
    as) carries a notebook's imports from one cell to the next.

    A host in the task code of an Airflow DAG file (see :func:`_task_code`) is reached only when
    a run of that DAG runs the task, so it carries the file's DAG ids (:func:`_dag_ids`) and is a
    need only when the task names one of them (Astro's template ``exampledag.py`` calls a web API
    in ``example_astronauts``, a DAG the tasks never run). Anything else in the file, evaluated
    when Airflow parses it, always counts, as does all of a file whose DAG ids are not literals."""
    try:
        with warnings.catch_warnings():  # the task's code may have invalid escapes; not our concern
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        _python_fallback(source, first_line, facts, where)
        return
    aliases = {} if aliases is None else aliases
    aliases.update(_imported_names(tree))
    dags = _dag_ids(tree) or ()
    task_code = _task_code(tree) if dags else set()
    docstrings: set[int] = set()
    # (node, inside an optional block, inside task code), in source order
    stack: list[tuple[ast.AST, bool, bool]] = [(tree, False, False)]
    while stack:
        node, optional, in_task = stack.pop()
        runs_with = dags if in_task else ()
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Constant)):
            line = f"{where} {first_line + node.lineno - 1}"
            if isinstance(node, ast.Import) and not optional:
                facts.needs += [Need("package", "", line, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and not optional:
                # each imported name under its module: `from google.cloud import bigquery` is
                # google.cloud.bigquery, which a namespace package's entry (google.cloud.*) resolves
                facts.needs += [Need("package", "", line, node.module if alias.name == "*" else f"{node.module}.{alias.name}")
                                for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                facts.needs += [Need("host", host, line, dags=runs_with) for host in hosts(node.value)]
        if isinstance(node, (ast.Import, ast.ImportFrom)) and _executes_notebooks(node):
            facts.executes_notebooks = True
        if isinstance(node, ast.Call) and (module := _written_module(node)):
            facts.modules.add(module)
        elif isinstance(node, ast.Call) and (called := _qualified(node.func, aliases)):
            host = next((h for pattern, h in DATA_DOWNLOADS.items() if fnmatch.fnmatchcase(called, pattern)), None)
            if host:
                facts.needs.append(Need("host", host, f"{where} {first_line + node.lineno - 1}, {called}()",
                                        dags=runs_with))
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
        guarded: set[int] = set()  # `try: import x / except ImportError:` and `if TYPE_CHECKING:` bodies
        if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
            guarded = {id(stmt) for stmt in node.body}
        elif isinstance(node, ast.If) and _names_type_checking(node.test):
            guarded = {id(stmt) for stmt in node.body}
        body = {id(stmt) for stmt in getattr(node, "body", [])} if id(node) in task_code else set()
        children = [(child, optional or id(child) in guarded, in_task or id(child) in body)
                    for child in ast.iter_child_nodes(node)]
        stack += reversed(children)


def _dotted(node: ast.expr) -> tuple[str, ...]:
    """A name as written, without a call: ``task.virtualenv(...)`` is (task, virtualenv)."""
    node = node.func if isinstance(node, ast.Call) else node
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return (node.id, *parts) if isinstance(node, ast.Name) else ()


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dag_ids(tree: ast.Module) -> tuple[str, ...] | None:
    """The ids of the DAGs a file defines: ``DAG("id")`` or ``DAG(dag_id="id")`` (in ``with`` or
    not) and ``@dag`` functions (the function's name, or the decorator's ``dag_id``). None when
    one of them has an id that is not a literal: which DAG runs the file's code is then unknown."""
    ids: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _dotted(node)[-1:] == ("DAG",):
            named = [k.value for k in node.keywords if k.arg == "dag_id"] or node.args[:1]
            dag_id = _literal(named[0]) if named else None
            if dag_id is None:
                return None
            ids.append(dag_id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                if _dotted(decorator)[-1:] != ("dag",):
                    continue
                keywords = decorator.keywords if isinstance(decorator, ast.Call) else []
                named = [k.value for k in keywords if k.arg == "dag_id"]
                dag_id = _literal(named[0]) if named else node.name
                if dag_id is None:
                    return None
                ids.append(dag_id)
    return tuple(dict.fromkeys(ids))


def _task_code(tree: ast.Module) -> set[int]:
    """The functions whose bodies run only when a DAG run runs one of its tasks: TaskFlow tasks
    (``@task``, ``@task.<kind>``; calling one while the DAG is built runs nothing), and functions
    an operator is given as ``python_callable=NAME`` that the file never calls itself."""
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    called = {node.func.id for node in calls if isinstance(node.func, ast.Name)}
    callables = {k.value.id for node in calls for k in node.keywords
                 if k.arg == "python_callable" and isinstance(k.value, ast.Name)}
    code: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = [_dotted(d) for d in node.decorator_list]
        if any(name[:1] == ("task",) or name[-1:] == ("task",) for name in names) or (
                not names and node.name in callables and node.name not in called):
            code.add(id(node))
    return code


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> qualified name, for every import in the tree (``import a.b as c``: c -> a.b;
    ``import a.b``: a -> a; ``from a import b as c``: c -> a.b)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    names[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update({alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names})
    return names


def _qualified(func: ast.expr, aliases: dict[str, str]) -> str | None:
    """``sklearn.datasets.fetch_x`` for a call of ``fetch_x`` or ``datasets.fetch_x`` etc., when
    the first name was imported; None for anything else (a local function, a method call)."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in aliases:
        return None
    return ".".join([aliases[func.id], *reversed(parts)])


def _executes_notebooks(node: ast.Import | ast.ImportFrom) -> bool:
    """Imports of what executes notebooks: papermill, nbclient, nbconvert's ExecutePreprocessor."""
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] in NOTEBOOK_EXECUTORS for a in node.names)
    module = node.module or ""
    return module.split(".")[0] in NOTEBOOK_EXECUTORS or (
        module.startswith("nbconvert") and any(a.name == "ExecutePreprocessor" for a in node.names))


def _written_module(call: ast.Call) -> str | None:
    """The module a call writes: ``open("jobs.py", "w")``, ``Path("jobs.py").write_text(...)``."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open" and call.args:
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        path, how = _literal(call.args[0]), _literal(mode)
        return PurePosixPath(path).stem if path and path.endswith(".py") and how and set(how) & set("wax") else None
    if isinstance(func, ast.Attribute) and func.attr in ("write_text", "write_bytes") and \
            isinstance(func.value, ast.Call) and func.value.args:
        path = _literal(func.value.args[-1])
        return PurePosixPath(path).stem if path and path.endswith(".py") else None
    return None


def _names_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(n, ast.Name) and n.id in {"ImportError", "ModuleNotFoundError", "Exception"} for n in names)


def _python_fallback(source: str, first_line: int, facts: Facts, where: str) -> None:
    """Code that does not parse (Python 2, templates): import lines and URLs outside comments.
    A name imported from a module counts under it, as in parsed code (:func:`read_python`), so
    that a namespace package's entry (``google.cloud.*``) resolves it."""
    for match in IMPORT_LINE.finditer(source):
        line = f"{where} {first_line + source.count(chr(10), 0, match.start())}"
        if match.group(1):
            if match.group(1).startswith("."):  # a relative import: the code's own package
                continue
            listed = re.sub(r"#[^\n]*", "", match.group(2)).strip("()")
            names = [n.split()[0] for n in listed.split(",") if n.strip()]
            modules = [match.group(1) if name == "*" else f"{match.group(1)}.{name}" for name in names]
        else:
            modules = [m.split()[0] for m in match.group(3).split(",") if m.strip()]
        facts.needs += [Need("package", "", line, m) for m in modules]
    for number, text in enumerate(source.splitlines(), first_line):
        if not text.lstrip().startswith("#"):
            facts.needs += [Need("host", host, f"{where} {number}") for host in hosts(text)]
