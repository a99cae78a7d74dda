"""What a task needs from its environment, read from the task and its files before anything runs.

A task's setup and evaluation steps name host files (``src``, ``path``, ...) and guest commands
(``command``). The files are read for what they will ask of the guest: shell scripts (``init.sh``,
``eval.sh``) for the programs they call and the conda environments they activate; Python files,
notebooks and archives of projects (DAGs, assets) for the packages they import and the internet
hosts their code names; requirements files for the packages they list. Files the task names that
the checkout lacks are needs too. :func:`unmet_needs` then compares all of it with what the
task's image family declares it provides (``provides.yaml``, see
:func:`pytest_spider2v.environments.snapshots.load_manifest`), so a task that cannot work here is skipped
with the exact reason, before any container starts.

It is a static reading, so it leans to what matters in practice: comments, docstrings, markdown
and echoed text are not calls; imports guarded by ``except ImportError`` and test files
(``tests/``, ``test_*.py``, hidden folders) are not needs; a requirements file counts when
something installs it; programs are checked by name (and by subcommand where a family provides
only some, as a shim does), packages by distribution name, not version. YAML files (settings,
exports, compose files) are not read: what they configure runs through a program, and that
program is the need. File analyses are cached per file, and nothing here runs at collection.
"""

from __future__ import annotations

import ast
import fnmatch
import ipaddress
import json
import re
import sys
import warnings
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import takewhile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal, TypeGuard, get_args

import yaml

from pytest_spider2v.environments.snapshots import (
    RECIPES_DIR,
    Family,
    Manifest,
    Snapshot,
    load_manifest,
    load_snapshots,
    normalize_distribution,
)

if TYPE_CHECKING:
    from pytest_spider2v.tasks.model import Task

NeedKind = Literal["file", "program", "conda_env", "package", "host"]
#: Parameters of steps and getters that name host files (relative paths; guest paths are absolute).
HOST_PATH_KEYS = ("src", "path", "setting_file", "config_file")
#: Host files under here are account settings (given with --settings-dir), not checkout files.
SETTINGS_PREFIX = "evaluation_examples/settings/"
#: Larger files (data, databases) are never code worth reading.
MAX_FILE_BYTES = 2_000_000
#: What running single tasks showed that reading them cannot (see :func:`load_known_needs`).
KNOWN_NEEDS = Path(__file__).with_name("known_needs.yaml")


@dataclass(frozen=True)
class Need:
    """One thing a task needs, and where it says so."""

    kind: NeedKind
    name: str  #: file path, program, conda environment, distribution or host
    where: str  #: "init.sh line 14", "project.zip: proj/assets.py line 7", "config[2].src"
    #: program: its subcommand words (``dev start``); package: the import name ("" when installed by name)
    detail: str = ""
    #: program: the command line as written
    call: str = ""
    #: package: other distributions that provide the same import (any one will do)
    alternatives: tuple[str, ...] = ()
    #: host: the DAGs whose task code names it (see :func:`_python`); it is a need only when
    #: the task names one of them somewhere else (empty: always a need)
    dags: tuple[str, ...] = ()
    #: host with ``dags``: the file (and archive member) it is in, whose own text does not count
    origin: str = ""


@dataclass(frozen=True)
class Unmet:
    """A need the task's image family does not provide."""

    need: Need
    family: str  #: the image family (recipe); the snapshot's name when it has none
    #: what the family offers of a program it restricts to some subcommands
    offered: tuple[str, ...] = ()

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
            if self.offered:
                have = ", ".join(f"'{c}'" for c in self.offered)
                call = f" (called in {need.where}: {need.call})" if located else ""
                return f"needs '{self.called}'{call}, not in {image}, which has only {have}"
            call = f" (called in {need.where}: {need.call})" if located else ""
            return f"needs program '{need.name}'{call}, not in {image}"
        if need.kind == "conda_env":
            where = f" (activated in {need.where})" if located else ""
            return f"needs conda environment '{need.name}'{where}, not in {image}"
        if need.kind == "package":
            imported = need.detail
            if imported:
                named = imported if normalize_distribution(imported) == need.name else f"{imported} ({need.name})"
                return f"imports {named}{' in ' + need.where if located else ''}, not in {image}"
            return f"installs Python package '{need.name}'{at}, not in {image}"
        if _is_internet_host(need.name):
            return f"downloads from {need.name} ({need.where + '; ' if located else ''}no internet here)"
        return f"connects to host '{need.name}'{at}, which {image} does not serve"


# -- the task level -------------------------------------------------------------------------------


def unmet_needs(task: Task, environments_dir: Path = RECIPES_DIR,
                known_needs: Path = KNOWN_NEEDS) -> list[Unmet]:
    """What the task needs that its image family does not provide (first place named, each once),
    with the corrections ``known_needs`` holds for the task."""
    manifest = load_manifest(environments_dir)
    snapshot = _snapshots(environments_dir).get(task.spec.snapshot)
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


@lru_cache(maxsize=4)
def _snapshots(environments_dir: Path) -> dict[str, Snapshot]:
    return load_snapshots(environments_dir)


@dataclass(frozen=True)
class KnownNeeds:
    """One task's corrections to what its files say: needs no file shows, and needs the files
    show that the task does not have (a download whose failure its evaluation never sees)."""

    needs: tuple[Need, ...] = ()
    not_needs: frozenset[tuple[str, str]] = frozenset()  #: (kind, name)


def load_known_needs(path: Path = KNOWN_NEEDS) -> dict[str, KnownNeeds]:
    """Task key (``<app>/<id>``) -> its corrections, from a YAML file (none when it is absent).

    The reading is static, so a few tasks need what no file of theirs shows (a DAG reaching a web
    API through a connection the agent creates) or do not need what one shows (a download whose
    failure the evaluation never sees). Each entry says why, and is found by running the task:
    its validation holds it (a task the reading would skip wrongly passes; one it would run
    wrongly cannot score 1 here)."""
    if not path.is_file():
        return {}
    return _load_known_needs(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _load_known_needs(path: Path, mtime_ns: int) -> dict[str, KnownNeeds]:
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: expected a mapping of task keys, got {type(data).__name__}")
    return {str(key): _known_entry(path, str(key), entry) for key, entry in data.items()}


def _known_entry(path: Path, key: str, entry: Any) -> KnownNeeds:
    if not isinstance(entry, Mapping) or not entry or set(entry) - {"needs", "not_needs"}:
        raise ValueError(f"{path}: {key} must map 'needs' and/or 'not_needs' to lists")
    items = {slot: _known_items(path, key, slot, entry.get(slot) or []) for slot in ("needs", "not_needs")}
    return KnownNeeds(tuple(Need(kind, name, text) for kind, name, text in items["needs"]),  # type: ignore[arg-type]
                      frozenset((kind, name) for kind, name, _ in items["not_needs"]))


def _known_items(path: Path, key: str, slot: str, items: Any) -> list[tuple[str, str, str]]:
    """(kind, name, where or why) of each item: ``{kind: host, name: wttr.in, where: ...}``
    under ``needs``, ``{kind: ..., name: ..., why: ...}`` under ``not_needs``."""
    text_key = "where" if slot == "needs" else "why"
    if not isinstance(items, list):
        raise ValueError(f"{path}: {key}.{slot} must be a list")
    found = []
    for item in items:
        if (not isinstance(item, Mapping) or set(item) != {"kind", "name", text_key}
                or item["kind"] not in get_args(NeedKind) or not all(str(item[k]).strip() for k in item)):
            raise ValueError(f"{path}: {key}.{slot}: each item is kind ({', '.join(get_args(NeedKind))}), "
                             f"name and {text_key}, got {item!r}")
        found.append((str(item["kind"]), str(item["name"]), str(item[text_key])))
    return found


def _check(need: Need, name: str, family: Family | None, manifest: Manifest) -> Unmet | None:
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
            return None if provided else Unmet(need, name, offered)
        return None if need.name in family.programs else Unmet(need, name)
    if need.kind == "conda_env":
        return None if need.name in family.conda_envs else Unmet(need, name)
    return None if {need.name, *need.alternatives} & family.packages else Unmet(need, name)


def task_needs(task: Task, manifest: Manifest) -> list[Need]:
    """Everything the task's steps, getters and named files need, in the order found.

    Imports are resolved to distributions here (through the manifest's table of names that
    differ), after the modules the task ships itself are known.
    """
    needs: list[Need] = []
    mentions: list[tuple[str, str]] = [("", task.instruction)]  # (file, text) where the task names DAGs
    local: set[str] = set()
    created_envs: set[str] = set()
    installs_from: set[str] = set()
    requirements: list[tuple[str, bool, list[Need]]] = []
    for where, params in _parameter_sets(task):
        for key in HOST_PATH_KEYS:
            value = params.get(key)
            if not _is_host_path(value):
                continue
            path = task.host_path(value)
            if not path.is_file():
                needs.append(Need("file", value, f"{where}.{key}"))
                continue
            facts = analyse_file(path)
            label = _label(path, task)
            needs += [_located(n, label) for n in facts.needs]
            mentions += [(_origin(label, member), text) for member, text in facts.mentions]
            local |= facts.modules
            created_envs |= facts.created_envs
            installs_from |= facts.installs_from
            requirements += [(name, built, [_located(n, label) for n in found])
                             for name, built, found in facts.requirements]
        dest = params.get("dest")
        if isinstance(dest, str) and dest.endswith(".py"):
            local.add(PurePosixPath(dest).stem)
        command = params.get("command")
        if isinstance(command, (str, list)) and command:
            text = command if isinstance(command, str) else " ".join(_shell_quote(str(c)) for c in command)
            facts = _Facts()
            _shell(text, 1, facts)
            needs += [_located(n, f"{where}.command") for n in facts.needs]
            mentions.append(("", text))
            installs_from |= facts.installs_from
    # A requirements file is a need when something installs it: a Dockerfile beside it (as an
    # Astro project's image build does) or a `pip install -r` of the task's.
    needs += [n for name, built, found in requirements if built or name in installs_from for n in found]
    resolved: list[Need] = []
    for need in needs:
        if need.kind == "package" and need.detail:  # an import: module -> distribution
            top = need.detail.split(".")[0]
            if top in local or top in sys.stdlib_module_names or top == "__future__":
                continue
            dists = manifest.distributions_of(need.detail)
            shown = top if manifest.distributions_of(top) == dists else need.detail
            resolved.append(Need("package", dists[0], need.where, shown, alternatives=dists[1:]))
        elif need.kind == "conda_env" and need.name in created_envs:
            continue
        elif need.dags and not _names_a_dag(need, mentions):
            continue
        else:
            resolved.append(need)
    return resolved


def _parameter_sets(task: Task) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each step's parameters and each getter, with where the task JSON has it."""
    spec = task.spec
    for i, step in enumerate(spec.config):
        yield f"config[{i}]", step.parameters
    for i, step in enumerate(spec.evaluator.postconfig):
        yield f"evaluator.postconfig[{i}]", step.parameters
    for slot in ("result", "expected"):
        value = getattr(spec.evaluator, slot)
        items = value if isinstance(value, list) else [value]
        for i, getter in enumerate(items):
            if getter is not None:
                yield (f"evaluator.{slot}[{i}]" if isinstance(value, list) else f"evaluator.{slot}"), getter.model_dump()


def _is_host_path(value: Any) -> TypeGuard[str]:
    return (isinstance(value, str) and bool(value) and not value.startswith(("/", "~", SETTINGS_PREFIX))
            and "://" not in value)


def _label(path: Path, task: Task) -> str:
    """A named file as a reader finds it: relative to the task folder, else to the task root."""
    for base in (task.folder, task.root):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def _located(need: Need, label: str) -> Need:
    where = f"{label} {need.where}" if need.where.startswith(("line", "cell")) else f"{label}: {need.where}"
    origin = _origin(label, need.origin) if need.dags else ""
    return replace(need, where=where if need.where else label, origin=origin)


def _origin(label: str, member: str) -> str:
    return f"{label}: {member}" if member else label


def _names_a_dag(need: Need, mentions: list[tuple[str, str]]) -> bool:
    """Whether the task names one of the DAGs whose task code has ``need``: its instruction, a
    command or a file it names (a script, a project's other code) other than the DAG file
    itself. A plain substring, so a longer name containing the id counts too (conservative)."""
    return any(dag in text for origin, text in mentions if origin != need.origin for dag in need.dags)


def _shell_quote(word: str) -> str:
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\"'\"'") + "'"


# -- one file -------------------------------------------------------------------------------------


@dataclass
class _Facts:
    """What one file (or archive) says; locations are relative to the file."""

    needs: list[Need] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)  #: Python modules the file (archive) defines
    created_envs: set[str] = field(default_factory=set)  #: conda environments it creates
    #: requirements files: (file name, built into an image by a Dockerfile beside it, their needs)
    requirements: list[tuple[str, bool, list[Need]]] = field(default_factory=list)
    installs_from: set[str] = field(default_factory=set)  #: file names given to ``pip install -r``
    #: (archive member or "", text) of each code file read: where a task may name a DAG
    mentions: list[tuple[str, str]] = field(default_factory=list)


def analyse_file(path: Path) -> _Facts:
    """The needs one host file states (cached while the file is unchanged)."""
    stat = path.stat()
    return _analyse_cached(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1024)
def _analyse_cached(path: Path, mtime_ns: int, size: int) -> _Facts:
    facts = _Facts()
    if size > MAX_FILE_BYTES and path.suffix != ".zip":
        return facts
    if path.suffix == ".zip":
        _archive(path, facts)
    else:
        _content(path.name, path.read_bytes(), "", facts)
    return facts


#: Folders of a project whose files the task does not run: tests, caches, metadata, checkpoints.
SKIPPED_PARTS = re.compile(r"^(\..*|__pycache__|__MACOSX|tests?|.*_tests?|.*\.egg-info|node_modules|site-packages)$")
SKIPPED_FILES = re.compile(r"^(test_.*\.py|.*_test\.py|conftest\.py)$")


def _archive(path: Path, facts: _Facts) -> None:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return
    with archive:
        built = {PurePosixPath(i.filename).parent for i in archive.infolist() if i.filename.endswith("Dockerfile")}
        for info in archive.infolist():
            member = PurePosixPath(info.filename)
            if info.is_dir() or any(SKIPPED_PARTS.match(p) for p in member.parts[:-1]):
                continue
            if member.suffix == ".py":
                facts.modules.update(p for p in member.parts[:-1])
                facts.modules.add(member.stem)
            if SKIPPED_FILES.match(member.name) or info.file_size > MAX_FILE_BYTES:
                continue
            if _kind(member.name) is not None:
                _content(member.name, archive.read(info), info.filename, facts, member.parent in built)


def _kind(name: str) -> str | None:
    if name.endswith(".py"):
        return "python"
    if name.endswith(".ipynb"):
        return "notebook"
    if name.endswith(".sh"):
        return "shell"
    if re.fullmatch(r"requirements.*\.txt", name):
        return "requirements"
    return None


def _content(name: str, data: bytes, member: str, facts: _Facts, built: bool = False) -> None:
    """Analyse one file's bytes into ``facts``; ``member`` is its path in an archive, if it is in
    one (locations then start with it), ``built`` whether a Dockerfile sits beside it."""
    kind = _kind(name)
    if kind is None:
        return
    text = data.decode("utf-8", errors="replace")
    found = _Facts()
    if kind == "python":
        facts.modules.add(PurePosixPath(name).stem)
        _python(text, 1, found)
    elif kind == "notebook":
        _notebook(text, found)
    elif kind == "shell":
        _shell(text, 1, found)
    else:
        _requirements(text, 1, found)
    if member:
        found.needs = [replace(n, where=f"{member} {n.where}") for n in found.needs]
    found.needs = [replace(n, origin=member) if n.dags else n for n in found.needs]
    if kind == "requirements":
        facts.requirements.append((name, built, found.needs))
    else:
        facts.needs += found.needs
        facts.mentions.append((member, text))
    facts.created_envs |= found.created_envs
    facts.installs_from |= found.installs_from


# -- Python ---------------------------------------------------------------------------------------

URL = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]*)://([^\s/'\"<>?#`\\]*)")
#: URL schemes that never leave the machine.
LOCAL_SCHEMES = {"file", "sqlite", "duckdb", "about", "data", "chrome"}
IMPORT_LINE = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\b|import\s+([\w., ]+))", re.MULTILINE)


def _hosts(text: str) -> Iterator[str]:
    """Hosts of the URLs in a piece of code or a command line (templated ones skipped)."""
    for scheme, authority in URL.findall(text):
        if scheme.lower() in LOCAL_SCHEMES:
            continue
        host = authority.rsplit("@", 1)[-1]
        if host.startswith("["):
            host = host[1:].split("]", 1)[0]
        else:
            host = host.split(":", 1)[0]
        host = host.lower().rstrip(".")
        if host and re.fullmatch(r"[a-z0-9.-]+|[0-9a-f:]+", host):
            yield host


def _is_internet_host(host: str) -> bool:
    """A public name or address, as opposed to a single-label service name or a private address."""
    try:
        return ipaddress.ip_address(host).is_global
    except ValueError:
        return "." in host


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


def _python(source: str, first_line: int, facts: _Facts, where: str = "line",
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
                facts.needs.append(Need("package", "", line, node.module))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                facts.needs += [Need("host", host, line, dags=runs_with) for host in _hosts(node.value)]
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


def _names_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(n, ast.Name) and n.id in {"ImportError", "ModuleNotFoundError", "Exception"} for n in names)


def _python_fallback(source: str, first_line: int, facts: _Facts, where: str) -> None:
    """Code that does not parse (Python 2, templates): import lines and URLs outside comments."""
    for match in IMPORT_LINE.finditer(source):
        line = f"{where} {first_line + source.count(chr(10), 0, match.start())}"
        modules = [match.group(1)] if match.group(1) else [m.split()[0] for m in match.group(2).split(",") if m.strip()]
        facts.needs += [Need("package", "", line, m) for m in modules]
    for number, text in enumerate(source.splitlines(), first_line):
        if not text.lstrip().startswith("#"):
            facts.needs += [Need("host", host, f"{where} {number}") for host in _hosts(text)]


# -- notebooks ------------------------------------------------------------------------------------

#: Cell magics whose body is still Python.
PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}
SHELL_CELL_MAGICS = {"bash", "sh", "script", "system"}


def _notebook(text: str, facts: _Facts) -> None:
    """Code cells: Python, with ``!cmd`` and ``%pip``/``%%bash`` read as shell."""
    try:
        cells = json.loads(text).get("cells", [])
    except (json.JSONDecodeError, AttributeError):
        return
    aliases: dict[str, str] = {}  # a notebook's imports hold in the cells after theirs
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        where = f"cell {number} line"
        lines = source.split("\n")
        magic = lines[0].strip()[2:].split(" ", 1)[0] if lines[0].lstrip().startswith("%%") else None
        if magic in SHELL_CELL_MAGICS:
            _shell("\n".join(lines[1:]), 2, facts, where)
            continue
        if magic is not None and magic not in PYTHON_CELL_MAGICS:
            continue
        python: list[str] = []
        for i, line in enumerate(lines, 1):
            stripped = line.lstrip()
            if stripped.startswith("!"):
                _shell(stripped[1:], i, facts, where)
            elif stripped.startswith(("%pip ", "%conda ")):
                _shell(stripped[1:], i, facts, where)
            if stripped.startswith(("!", "%")):
                line = ""
            python.append(line)
        _python("\n".join(python), 1, facts, where, aliases)


# -- requirements files -------------------------------------------------------------------------------

REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)")


def _requirements(text: str, first_line: int, facts: _Facts, where: str = "line") -> None:
    for number, line in enumerate(text.splitlines(), first_line):
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        if "://" in line and " @ " not in line:  # a bare URL or a VCS link: fetched by pip
            facts.needs += [Need("host", host, f"{where} {number}") for host in _hosts(line)]
            continue
        match = REQUIREMENT.match(line)
        if match:
            facts.needs.append(Need("package", normalize_distribution(match.group(1)), f"{where} {number}"))


# -- shell ----------------------------------------------------------------------------------------

#: Words a shell handles itself: never programs on the PATH.
BUILTINS = frozenset(
    "alias bg bind break builtin caller cd command compgen complete continue declare dirs disown echo enable "
    "eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd "
    "printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true "
    "type typeset ulimit umask unalias unset wait . : [ [[ ]]".split()
)
KEYWORDS = frozenset("if then else elif fi do done while until ! { } time coproc esac".split())
#: Commands that carry another command after their options; values of the options that take one.
WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset("-u -g -p -C -D -h -r -t -U -T --user --group --prompt".split()),
    "env": frozenset("-u -C -S --unset --chdir".split()),
    "nohup": frozenset(),
    "nice": frozenset("-n".split()),
    "ionice": frozenset("-c -n -p".split()),
    "timeout": frozenset("-s -k --signal --kill-after".split()),
    "stdbuf": frozenset("-i -o -e".split()),
    "xargs": frozenset("-I -n -P -d -L -s -a -E -e".split()),
    "exec": frozenset("-a".split()),
    "command": frozenset(),
    "builtin": frozenset(),
    "setsid": frozenset(),
    "time": frozenset("-f -o".split()),
}
#: Commands whose arguments are text to print or match, not addresses to reach.
TEXT_COMMANDS = frozenset("echo printf grep egrep fgrep sed awk test [ [[ jq cut tr".split())
SHELLS = frozenset("bash sh dash zsh".split())
PIP_VALUE_OPTIONS = frozenset("-c --constraint -e --editable -i --index-url --extra-index-url -f --find-links -t "
                              "--target --prefix --root".split())
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
PROGRAM_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")
#: A program's subcommand words (``astro dev start``, ``conda env create``): how many are kept,
#: and what they look like (not an option, a path or a file name).
SUBCOMMAND_WORDS = 2
SUBCOMMAND = re.compile(r"[a-z][a-z0-9_-]*")
OPERATORS = ("&>>", ";;&", "<<<", "<<-", "&&", "||", ";;", ";&", "|&", ">>", "<<", ">&", "<&", "&>", ">|", "<>",
             ";", "&", "|", "(", ")", "<", ">")
REDIRECTIONS = frozenset({"&>>", "<<<", "<<-", ">>", "<<", ">&", "<&", "&>", ">|", "<>", "<", ">"})


@dataclass
class _Word:
    text: str
    line: int
    quoted: bool = False
    heredoc: str | None = None  #: the body, for the delimiter word of a here-document


@dataclass(frozen=True)
class _Op:
    op: str
    line: int


def _shell(text: str, first_line: int, facts: _Facts, where: str = "line") -> None:
    """Programs called (after sudo, env, ...), conda environments, pip installs, URL hosts."""
    tokens, nested = _lex(text, first_line)
    functions = {w.text for i, w in enumerate(tokens) if isinstance(w, _Word) and _defines_function(tokens, i)}
    _commands(tokens, functions, facts, where)
    for inner, line in nested:  # substitutions nested in substitutions are appended as they are found
        inner_tokens, more = _lex(inner, line)
        nested += more
        _commands(inner_tokens, functions, facts, where)


def _defines_function(tokens: list[_Word | _Op], i: int) -> bool:
    word = tokens[i]
    assert isinstance(word, _Word)
    before = tokens[i - 1] if i else None
    if isinstance(before, _Word) and before.text == "function" and not before.quoted:
        return True
    after = tokens[i + 1:i + 3]
    return [t.op for t in after if isinstance(t, _Op)] == ["(", ")"] and len(after) == 2


def _lex(text: str, line: int) -> tuple[list[_Word | _Op], list[tuple[str, int]]]:
    """Words and operators of a shell text; command substitutions come back apart, as
    (text, line) pairs, so that the command around them is read whole."""
    tokens: list[_Word | _Op] = []
    nested: list[tuple[str, int]] = []
    heredocs: list[tuple[_Word, bool]] = []
    word: list[str] = []
    quoted = False
    start = line
    i, n = 0, len(text)

    def end_word() -> None:
        nonlocal word, quoted
        if word or quoted:
            tokens.append(_Word("".join(word), start, quoted))
            before = tokens[-2] if len(tokens) > 1 else None
            if isinstance(before, _Op) and before.op in ("<<", "<<-"):
                heredocs.append((tokens[-1], before.op == "<<-"))  # type: ignore[arg-type]
        word, quoted = [], False

    def substitution(j: int, closer: str) -> int:
        """Take the command substitution starting at ``j`` (just inside it); return the index after."""
        nonlocal line
        inner_line, depth, k = line, 1, j
        while k < n:
            c = text[k]
            if c == "\\":
                line += text.startswith("\n", k + 1)
                k += 2
                continue
            if c == "\n":
                line += 1
            if closer == "`":
                if c == "`":
                    break
            elif c in "'\"":
                end = text.find(c, k + 1)
                line += text.count("\n", k, end if end >= 0 else n)
                k = end if end >= 0 else n
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        nested.append((text[j:k], inner_line))
        word.append("$(...)")
        return k + 1

    while i < n:
        c = text[i]
        if not word and not quoted:
            start = line
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                line += 1
            else:
                word.append(text[i + 1])
            i += 2
        elif c == "\n":
            end_word()
            tokens.append(_Op("\n", line))
            line += 1
            i += 1
            for delimiter, strip_tabs in heredocs:
                body: list[str] = []
                while i < n:
                    end = text.find("\n", i)
                    end = n if end < 0 else end
                    current = text[i:end]
                    i = end + 1
                    line += 1
                    if (current.lstrip("\t") if strip_tabs else current) == delimiter.text:
                        break
                    body.append(current)
                delimiter.heredoc = "\n".join(body)
            heredocs.clear()
        elif c in " \t\r":
            end_word()
            i += 1
        elif c == "#" and not word and not quoted:
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            word.append(text[i + 1:end])
            line += text.count("\n", i, end)
            quoted = True
            i = end + 1
        elif c == '"':
            quoted = True
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n:
                    word.append(text[i + 1] if text[i + 1] in '"\\$`' else text[i:i + 2])
                    i += 2
                elif text.startswith("$(", i) and not text.startswith("$((", i):
                    i = substitution(i + 2, ")")
                elif text[i] == "`":
                    i = substitution(i + 1, "`")
                else:
                    if text[i] == "\n":
                        line += 1
                    word.append(text[i])
                    i += 1
            i += 1
        elif text.startswith("$(", i) and not text.startswith("$((", i):
            i = substitution(i + 2, ")")
        elif c == "`":
            i = substitution(i + 1, "`")
        elif c == "$" and i + 1 < n and text[i + 1] in "({":
            k = _closing(text, i + 1)  # ${parameter} or $((arithmetic))
            word.append(text[i:k + 1])
            i = k + 1
        elif c == "(" and (ASSIGNMENT.fullmatch("".join(word)) or (not word and text.startswith("((", i))):
            k = _closing(text, i)  # an array literal `x=(a b)`, or arithmetic `(( i++ ))`
            word.append(text[i:k + 1])
            line += text.count("\n", i, k)
            i = k + 1
        elif c in ";&|()<>":
            if c in "<>" and word and "".join(word).isdigit() and not quoted:
                word, quoted = [], False  # a file descriptor number: part of the redirection
            end_word()
            op = next(o for o in OPERATORS if text.startswith(o, i))
            tokens.append(_Op(op, line))
            i += len(op)
        else:
            word.append(c)
            i += 1
    end_word()
    return tokens, nested


def _closing(text: str, i: int) -> int:
    """Index of the bracket that closes the one at ``i`` (quotes respected), or the last index."""
    opener = text[i]
    closer = {"(": ")", "{": "}"}[opener]
    depth, k = 0, i
    while k < len(text):
        c = text[k]
        if c in "'\"":
            end = text.find(c, k + 1)
            k = len(text) - 1 if end < 0 else end
        elif c == "\\":
            k += 1
        elif c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return len(text) - 1


def _commands(tokens: list[_Word | _Op], functions: set[str], facts: _Facts, where: str) -> None:
    """Split the token stream into simple commands and read each."""
    words: list[_Word] = []
    redirects: list[tuple[str, _Word]] = []
    case_pattern = False  # inside `case ... in`, until a pattern's closing parenthesis
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, _Op):
            if token.op in REDIRECTIONS:
                target = tokens[i + 1] if i + 1 < len(tokens) else None
                if isinstance(target, _Word):
                    redirects.append((token.op, target))
                    i += 2
                    continue
            elif case_pattern and token.op == ")":
                case_pattern, words, redirects = False, [], []
            elif token.op in (";;", ";&", ";;&"):
                _command(words, redirects, functions, facts, where)
                words, redirects, case_pattern = [], [], True
            else:
                if not case_pattern:
                    _command(words, redirects, functions, facts, where)
                words, redirects = [], []
            i += 1
            continue
        if not words and not token.quoted and token.text == "case":
            # `case WORD in`: skip to `in`; patterns follow
            while i < len(tokens) and not (isinstance(tokens[i], _Word) and tokens[i].text == "in"):  # type: ignore[union-attr]
                i += 1
            case_pattern = True
            i += 1
            continue
        if case_pattern:
            if not token.quoted and token.text == "esac":
                case_pattern = False
            i += 1
            continue
        words.append(token)
        i += 1
    _command(words, redirects, functions, facts, where)


def _command(words: list[_Word], redirects: list[tuple[str, _Word]], functions: set[str], facts: _Facts,
             where: str) -> None:
    """One simple command: its program (behind keywords, assignments and wrappers) and what it reaches."""
    words = list(words)
    while words and not words[0].quoted and words[0].text in KEYWORDS:
        words.pop(0)
    if not words:
        return
    head = words[0].text
    if head in ("for", "select", "function", "[[") or (len(words) == 1 and head in functions):
        if head in ("for", "select"):
            _hosts_in(words, facts, where)
        return
    while words and ASSIGNMENT.match(words[0].text):
        facts.needs += [Need("host", h, f"{where} {words[0].line}") for h in _hosts(words[0].text.split("=", 1)[1])]
        words.pop(0)
    words = _unwrap(words)
    if not words:
        return
    program, args = words[0].text, [w.text for w in words[1:]]
    line = f"{where} {words[0].line}"
    if program in SHELLS or program in ("su", "sg"):  # `su USER -c CMD`, `sg GROUP -c CMD`
        if "-c" in args and args.index("-c") + 1 < len(args):
            _shell(args[args.index("-c") + 1], words[0].line, facts, where)
    if re.fullmatch(r"python(\d+(\.\d+)?)?", program):
        _python_command(args, words[0].line, redirects, facts, where)
    if program in ("pip", "pip3") or re.fullmatch(r"pip\d\.\d+", program):
        _pip(args, line, facts)
    if program in ("conda", "mamba", "micromamba") or (program in ("source", ".") and args[:1] == ["activate"]):
        _conda(program, args, words, functions, facts, where)
    heredoc = next((t for op, t in redirects if op in ("<<", "<<-") and t.heredoc is not None), None)
    if heredoc is not None:
        _heredoc(program, redirects, heredoc, facts, where)
    if program not in TEXT_COMMANDS:
        _hosts_in(words[1:], facts, where)
    if program in BUILTINS or program in functions or program in KEYWORDS or not PROGRAM_NAME.match(program) \
            or program.isdigit():
        return
    sub = " ".join(takewhile(SUBCOMMAND.fullmatch, args[:SUBCOMMAND_WORDS]))
    call = " ".join([program, *args])
    facts.needs.append(Need("program", program, line, sub, call if len(call) <= 120 else call[:117] + "..."))


def _unwrap(words: list[_Word]) -> list[_Word]:
    """Drop sudo/env/nohup/... and their options (and env's assignments) before the real command."""
    while words and words[0].text in WRAPPERS and not words[0].quoted:
        wrapper, takes_value = words[0].text, WRAPPERS[words[0].text]
        rest = words[1:]
        if wrapper == "command" and rest and rest[0].text in ("-v", "-V"):
            return []  # `command -v prog` asks whether it exists: not a need
        while rest and (rest[0].text.startswith("-") or (wrapper in ("env", "sudo") and ASSIGNMENT.match(rest[0].text))):
            option = rest.pop(0).text
            if option == "--":
                break
            if option in takes_value and rest:
                rest.pop(0)
        if wrapper == "timeout" and rest:
            rest.pop(0)  # the duration
        words = rest
    return words


def _hosts_in(words: list[_Word], facts: _Facts, where: str) -> None:
    for word in words:
        facts.needs += [Need("host", host, f"{where} {word.line}") for host in _hosts(word.text)]


def _python_command(args: list[str], line: int, redirects: list[tuple[str, _Word]], facts: _Facts,
                    where: str) -> None:
    """``python -c CODE`` and ``python -m MODULE`` (``-m pip install`` as pip)."""
    for i, arg in enumerate(args[:-1]):
        if arg == "-c":
            _python(args[i + 1], line, facts, where)
            return
        if arg == "-m":
            module = args[i + 1]
            if module == "pip":
                _pip(args[i + 2:], f"{where} {line}", facts)
            else:
                facts.needs.append(Need("package", "", f"{where} {line}", module))
            return


def _pip(args: list[str], line: str, facts: _Facts) -> None:
    """``pip install NAME ...``: each named distribution; ``-r FILE`` marks that file installed."""
    if not args or args[0] != "install":
        return
    rest = iter(args[1:])
    for arg in rest:
        if arg in ("-r", "--requirement"):
            facts.installs_from.add(PurePosixPath(next(rest, "")).name)
        elif arg in PIP_VALUE_OPTIONS:
            next(rest, None)
        elif "://" in arg:
            facts.needs += [Need("host", host, line) for host in _hosts(arg)]
        elif arg.startswith("-") or arg == "." or "/" in arg:
            continue
        elif (match := REQUIREMENT.match(arg)) is not None:
            facts.needs.append(Need("package", normalize_distribution(match.group(1)), line))


def _conda(program: str, args: list[str], words: list[_Word], functions: set[str], facts: _Facts,
           where: str) -> None:
    """``conda activate NAME`` needs the environment, unless the task's own ``conda create`` made it."""
    line = f"{where} {words[0].line}"
    if program in ("source", "."):
        args = args[1:]
        if args:
            facts.needs.append(Need("conda_env", args[0], line))
        return
    if not args:
        return
    if args[0] == "activate" and len(args) > 1 and args[1] != "base" and not args[1].startswith("-"):
        facts.needs.append(Need("conda_env", args[1], line))
    elif args[0] == "create" or args[:2] == ["env", "create"]:
        name = _option_value(args, ("-n", "--name"))
        if name:
            facts.created_envs.add(name)
    elif args[0] == "run":
        name = _option_value(args, ("-n", "--name"))
        if name and name != "base":
            facts.needs.append(Need("conda_env", name, line))
        rest = words[2:]
        while rest and rest[0].text.startswith("-"):
            option = rest.pop(0).text
            if option in ("-n", "--name", "-p", "--prefix", "--cwd") and rest:
                rest.pop(0)
        if rest:
            _command(rest, [], functions, facts, where)


def _option_value(args: list[str], names: tuple[str, ...]) -> str | None:
    for i, arg in enumerate(args):
        if arg in names and i + 1 < len(args):
            return args[i + 1]
        for name in names:
            if name.startswith("--") and arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None


def _heredoc(program: str, redirects: list[tuple[str, _Word]], body_word: _Word, facts: _Facts, where: str) -> None:
    """A here-document read as what it becomes: Python fed to python, or a file written by cat."""
    body = body_word.heredoc or ""
    first = body_word.line + 1
    targets = [t.text for op, t in redirects if op in (">", ">>")]
    name = PurePosixPath(targets[0]).name if targets else ""
    if re.fullmatch(r"python(\d+(\.\d+)?)?", program) or name.endswith(".py"):
        _python(body, first, facts, where)
    elif re.fullmatch(r"requirements.*\.txt", name):
        _requirements(body, first, facts, where)

