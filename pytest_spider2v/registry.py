"""Name -> implementation registries: the seams through which setup steps, getters, metrics,
agents, providers and task formats plug in without the core knowing any of them.

A name can also be *declared* without an implementation (for example a cloud getter of the
original benchmark). Declared names pass task validation, and using one raises
:class:`Unavailable` with the reason, which the run turns into a skip.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.metadata
import inspect
import json
import pkgutil
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Concatenate, Generic, Protocol, TypedDict, TypeVar, Unpack, overload

if TYPE_CHECKING:  # the types the registries hold are the core's; the core imports this module
    from pytest_spider2v.environments.provider import Provider
    from pytest_spider2v.run.agent import Agent, AgentSettings
    from pytest_spider2v.run.json_values import JsonObject
    from pytest_spider2v.run.task_context import TaskContext
    from pytest_spider2v.tasks.availability import Emulator
    from pytest_spider2v.tasks.formats import TaskFormat

T = TypeVar("T")
#: A registered function, keeping its own type through :meth:`Registry.register`.
F = TypeVar("F", bound=Callable[..., object])


class UnknownName(LookupError):
    """A task or option names something no registry knows."""


class Unavailable(RuntimeError):
    """A known name that cannot run here (needs an account, a program, or is not built yet)."""

    def __init__(self, kind: str, name: str, reason: str) -> None:
        super().__init__(f"{kind} '{name}' is unavailable: {reason}")
        self.kind = kind
        self.name = name
        self.reason = reason


class Meta(TypedDict, total=False):
    """What a registration says of its name beyond the object, as keywords of
    :meth:`Registry.register`, :meth:`~Registry.add` and :meth:`~Registry.declare`
    (``@getters.register("bigquery_datasets", account="bigquery")``). Every key is optional, and
    each is read by the core where it says."""

    #: The account (a ``related_apps`` key: ``"bigquery"``) a step or getter needs: account tasks
    #: are selected, skipped without settings and reported as a group by it.
    account: str
    #: A setup step that only drives a service's web console, saying what it does: waived (and
    #: noted) when the task runs against an emulator, which has no console.
    console: str
    #: Why a step or getter cannot run against an emulator: the task is skipped with it.
    not_emulated: str
    #: An agent (or a Mind2Web web agent) serving more names than its own, such as every model
    #: of one provider: ``--agent NAME`` finds the entry whose ``matches(NAME)`` is true.
    matches: Callable[[str], bool]
    #: An agent reading an earlier run (a replay): the run folder it reads for ``--agent NAME``,
    #: which the run must not write its records into.
    reads_run: Callable[[str], Path]


@dataclass(frozen=True)
class Entry(Generic[T]):
    name: str
    obj: T | None
    meta: Meta = field(default_factory=Meta)
    unavailable: str | None = None  # reason, for declared-only names


@dataclass(frozen=True)
class Described:
    """What collection reads of a name (its task checks, markers and skip reasons) without the
    implementation: the registration's metadata, why it cannot run (declared-only names) and, for
    a setup step, the signature the task's parameters must bind to."""

    meta: Meta
    unavailable: str | None
    signature: inspect.Signature | None


@dataclass(frozen=True)
class Indexed:
    """A name an extension package's index says one of its modules registers (see
    :func:`load_index`): described from the index until the indexed modules are imported."""

    meta: Meta
    unavailable: str | None = None
    #: A setup step's parameters, written as in its ``def`` without annotations or default values
    #: (:func:`parameter_list`): ``["ctx", "path", "mode=", "*", "strict=", "**extra"]``.
    parameters: tuple[str, ...] | None = None

    def signature(self) -> inspect.Signature | None:
        """The signature the parameters describe, a default standing for each default (binding
        checks only whether a parameter may be left out)."""
        if self.parameters is None:
            return None
        written = list(self.parameters)
        positional_only = written.index("/") if "/" in written else 0
        made: list[inspect.Parameter] = []
        kind: inspect._ParameterKind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        for index, text in enumerate(written):
            if text in ("/", "*"):
                kind = inspect.Parameter.KEYWORD_ONLY if text == "*" else kind
                continue
            if text.startswith("**"):
                made.append(inspect.Parameter(text[2:], inspect.Parameter.VAR_KEYWORD))
            elif text.startswith("*"):
                made.append(inspect.Parameter(text[1:], inspect.Parameter.VAR_POSITIONAL))
                kind = inspect.Parameter.KEYWORD_ONLY
            else:
                own = inspect.Parameter.POSITIONAL_ONLY if index < positional_only else kind
                default = None if text.endswith("=") else inspect.Parameter.empty
                made.append(inspect.Parameter(text.rstrip("="), own, default=default))
        return inspect.Signature(made)


def parameter_list(signature: inspect.Signature) -> list[str]:
    """A signature's parameters as :attr:`Indexed.parameters` writes them."""
    parameters = list(signature.parameters.values())
    last_positional_only = max((i for i, p in enumerate(parameters) if p.kind is inspect.Parameter.POSITIONAL_ONLY),
                               default=-1)
    written: list[str] = []
    for index, parameter in enumerate(parameters):
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and not any(w.startswith("*") for w in written):
            written.append("*")
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            written.append(f"*{parameter.name}")
        elif parameter.kind is inspect.Parameter.VAR_KEYWORD:
            written.append(f"**{parameter.name}")
        else:
            written.append(parameter.name + ("=" if parameter.default is not inspect.Parameter.empty else ""))
        if index == last_positional_only:
            written.append("/")
    return written


class Registry(Generic[T]):
    """A named collection of implementations of one kind ("metric", "agent", ...)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[T]] = {}
        self._deferred: list[str] = []
        self._indexed: dict[str, Indexed] = {}
        #: Names an extension registered outside an indexed package's loading: they keep
        #: precedence over the index's name, whenever its module is imported.
        self._overrides: set[str] = set()

    def load_on_first_use(self, package: str, *modules: str) -> None:
        """Import ``package``'s ``modules`` (which register here) only when this registry is first
        read: an extension whose implementations are costly to import and that no collection needs
        (agents, near-miss makers) registers its names when a run asks for one, so that every
        ``pytest`` start-up, ``--collect-only`` and ``-k`` included, does not pay for it."""
        self._deferred += [f"{package}.{module}" for module in modules]

    def index(self, names: Mapping[str, Indexed]) -> None:
        """Know ``names`` from an index (see :func:`load_index`) without importing their modules:
        membership, listings and :meth:`describe` read the index."""
        self._indexed.update(names)

    @property
    def _complete(self) -> dict[str, Entry[T]]:
        """The entries, after the deferred modules have registered theirs."""
        while self._deferred:
            importlib.import_module(self._deferred.pop(0))
        return self._entries

    def _search(self, name: str) -> bool:
        """Whether ``name`` is registered once the indexed modules, and then every module of the
        indexed packages, are imported: a name their index does not list yet (a stale index) is
        found, at the price of imports only a name no index knows pays."""
        if not self._indexed:
            return False  # a registry no index fills: its modules registered on import
        _import_indexed_modules()
        while name not in self._entries and _unsearched_packages:
            _import_indexed_modules(package_modules(_unsearched_packages.pop(0)))
        return name in self._entries

    # A decorated function keeps its own type (a getter calling another sees its signature), which
    # the overloads check against what its registry holds; the last serves any other registry.
    # mypy finds them overlapping (a kind's `...` reads as anything), but a Registry is invariant:
    # a Registry[Getter] is never a Registry[SetupStep].
    @overload
    def register(self: Registry[SetupStep], name: str | None = None,  # type: ignore[overload-overlap]
                 **meta: Unpack[Meta]) -> Callable[[_Step], _Step]: ...
    @overload
    def register(self: Registry[Getter], name: str | None = None,
                 **meta: Unpack[Meta]) -> Callable[[_Getter], _Getter]: ...
    @overload
    def register(self: Registry[Metric], name: str | None = None,  # type: ignore[overload-overlap]
                 **meta: Unpack[Meta]) -> Callable[[_Metric], _Metric]: ...
    @overload
    def register(self: Registry[NearMissMaker], name: str | None = None,  # type: ignore[overload-overlap]
                 **meta: Unpack[Meta]) -> Callable[[_Maker], _Maker]: ...
    @overload
    def register(self: Registry[AgentFactory], name: str | None = None,  # type: ignore[overload-overlap]
                 **meta: Unpack[Meta]) -> Callable[[_Factory], _Factory]: ...
    @overload
    def register(self, name: str | None = None, **meta: Unpack[Meta]) -> Callable[[F], F]: ...

    def register(self, name: str | None = None, **meta: Unpack[Meta]) -> Callable[[F], F]:
        """Decorator: ``@metrics.register()`` uses the function's own name."""

        def decorate(obj: F) -> F:
            self.add(name or obj.__name__, obj, **meta)  # type: ignore[arg-type]  # F is checked by the overloads
            return obj

        return decorate

    def add(self, name: str, obj: T, **meta: Unpack[Meta]) -> None:
        if _recording is not None:
            _recording.append((self, name, _registering_module()))  # type: ignore[arg-type]
        if _indexed_loading:
            if name in self._overrides:
                return  # an installed extension's own registration of the name comes first
        elif name in self._indexed:
            self._overrides.add(name)
        self._entries[name] = Entry(name, obj, meta)

    def declare(self, name: str, reason: str, **meta: Unpack[Meta]) -> None:
        """Know a name without implementing it; using it raises :class:`Unavailable`."""
        if _recording is not None:
            _recording.append((self, name, _registering_module()))  # type: ignore[arg-type]
        if name not in self._entries or self._entries[name].obj is None:
            self._entries[name] = Entry(name, None, meta, unavailable=reason)

    def declare_unavailable(self, needs_account: dict[str, tuple[str, tuple[str, ...]]],
                            others: dict[str, str] | None = None) -> None:
        """Declare the names of a ``declared.py`` table: ``needs_account`` maps an account key
        (as in ``related_apps``) to the service's display name and the names needing it (their
        ``account`` meta lets account tasks be selected and reported as a group); ``others`` maps
        a name to why it cannot run here."""
        for account, (service, names) in needs_account.items():
            for name in names:
                self.declare(name, f"needs a {service} account, and is not implemented here yet", account=account)
        for name, reason in (others or {}).items():
            self.declare(name, reason)

    def entry(self, name: str) -> Entry[T]:
        if self._indexed and _unimported:
            _import_indexed_modules()  # whether or not this name's own module is imported already
        if name in self._complete or self._search(name):
            return self._entries[name]
        raise UnknownName(self._unknown_message(name))

    def describe(self, name: str) -> Described:
        """The name's metadata, unavailability and (a step's) signature, from its index when its
        module is not imported yet: collecting a task costs no import of what it names."""
        if name in self._entries:
            entry = self._entries[name]
        elif name in self._indexed:
            indexed = self._indexed[name]
            return Described(indexed.meta, indexed.unavailable, indexed.signature())
        else:
            entry = self.entry(name)  # found by a search, or UnknownName
        signature = _signature(entry.obj) if callable(entry.obj) else None
        unavailable = entry.unavailable or ("not implemented" if entry.obj is None else None)
        return Described(entry.meta, unavailable, signature)

    def get(self, name: str) -> T:
        entry = self.entry(name)
        if entry.obj is None:
            raise Unavailable(self.kind, name, entry.unavailable or "not implemented")
        return entry.obj

    def _unknown_message(self, name: str) -> str:
        close = difflib.get_close_matches(name, list(self), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        return f"unknown {self.kind} '{name}'{hint}"

    def __contains__(self, name: object) -> bool:
        return name in self._indexed or name in self._complete or (isinstance(name, str) and self._search(name))

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*self._complete, *self._indexed}))

    def available(self) -> list[str]:
        indexed = (n for n, i in self._indexed.items() if n not in self._entries and i.unavailable is None)
        return sorted([*(n for n, e in self._complete.items() if e.obj is not None), *indexed])


@dataclass(frozen=True)
class Scored:
    """What a metric may return instead of a bare score: the score with the parts it judged
    (a closed-form question's sub-answers, each with its verdict). The evaluator keeps ``parts``
    in the record beside the score, where reports read them; ``detail`` explains the score."""

    score: float
    detail: str = ""
    parts: tuple[JsonObject, ...] = ()


@dataclass(frozen=True)
class NearMiss:
    """An almost-right variant of a metric's fetched result: what ``--validate``'s near-miss check
    gives the metric in place of the reference run's result, expecting a score below 1. ``kind``
    names the perturbation ("value changed", "row dropped", ...), ``where`` what it touched.

    A ``control`` variant is the result rewritten without any change (a workbook saved again):
    when it no longer scores 1, the rewriting itself changes the score, and the variants made by
    that rewriting prove nothing; they are not counted. An ``untried`` entry (no result) names a
    part of what the metric checks that the maker cannot vary, ``where`` saying why: reported as
    not covered.

    ``part`` names the part of the metric's check a variant is aimed at, for a metric whose
    options list what it checks (``compare_table``'s rule types and their properties:
    ``"sheet_data"``, ``"pivot_table.filter"``): the near-miss table counts tried, caught,
    crashed and not covered per metric and per part, so a listed property that no variant tried
    shows. Empty for a metric checked as a whole."""

    kind: str
    where: str
    result: object = None
    control: bool = False
    untried: bool = False
    part: str = ""


@functools.cache
def _signature(fn: Callable[..., object]) -> inspect.Signature:
    """A registered function's signature, read once: collection checks every step of every task."""
    return inspect.signature(fn)


def check_parameters(fn: Callable[..., object] | inspect.Signature, leading: int,
                     params: Mapping[str, object]) -> str | None:
    """Why ``fn(<leading positional>, **params)`` would not bind, or None if it would (``fn`` or
    its signature, as :meth:`Registry.describe` gives it)."""
    sig = fn if isinstance(fn, inspect.Signature) else _signature(fn)
    dummies = [None] * leading
    try:
        sig.bind(*dummies, **params)
    except TypeError as exc:
        return str(exc)
    return None


# -- what each registry holds ----------------------------------------------------------------------
#: ``fn(ctx, **parameters)``: a task ``config`` / ``postconfig`` step; the task's ``parameters``
#: are the step's own keywords (task loading checks that they bind: :func:`check_parameters`).
SetupStep = Callable[Concatenate["TaskContext", ...], None]
#: ``fn(ctx, spec) -> value``: brings state to the host for a metric. ``spec`` is the task's getter
#: object, which the getter types as its own ``TypedDict`` (the fields it reads).
Getter = Callable[Concatenate["TaskContext", ...], object]
#: ``fn(result, expected, **options)`` (or ``fn(result, **options)``): pure scoring, a float in
#: [0, 1]; a :class:`Scored` instead keeps the parts the score was judged on. The arguments are
#: what the task's getters brought and its options, in the types the metric declares.
Metric = Callable[..., float | Scored]
#: ``fn(result, expected, options: dict, workdir: Path)``, registered under the name of the metric
#: it serves: almost-right variants of the result that metric scored 1, aimed at what the metric
#: claims to check (files are written under ``workdir``).
NearMissMaker = Callable[..., Iterable[NearMiss]]
#: ``factory(settings) -> Agent``: the agent ``--agent NAME`` runs.
AgentFactory = Callable[["AgentSettings"], "Agent"]


#: Each kind of registered function, as the decorator returns it: its own type, within its kind's.
_Step = TypeVar("_Step", bound=SetupStep)
_Getter = TypeVar("_Getter", bound=Getter)
_Metric = TypeVar("_Metric", bound=Metric)
_Maker = TypeVar("_Maker", bound=NearMissMaker)
_Factory = TypeVar("_Factory", bound=AgentFactory)


class ProviderFactory(Protocol):
    """``factory(owner=..., worker=..., **options) -> Provider``: one provider per pytest worker
    (see :mod:`pytest_spider2v.environments.provider`). ``options`` are the environment limits
    and isolation given on the command line and what the provider's own flags add."""

    def __call__(self, owner: str, worker: str, **options: object) -> Provider: ...


# -- the project-wide registries; built-in and third-party extensions fill them on import --------
setup_steps: Registry[SetupStep] = Registry("setup step")
getters: Registry[Getter] = Registry("getter")
metrics: Registry[Metric] = Registry("metric")
near_misses: Registry[NearMissMaker] = Registry("near-miss maker")
#: The services ``--cloud emulate`` can stand in for, by name.
emulators: Registry[Emulator] = Registry("emulator")
agents: Registry[AgentFactory] = Registry("agent")
providers: Registry[ProviderFactory] = Registry("provider")
#: Task file formats beyond the built-in layouts: collection asks them which files are task files
#: and turns those into tasks.
task_formats: Registry[TaskFormat] = Registry("task format")
#: Folders laid out like the built-in ``environments/recipes``, by a name of the extension's
#: choosing: the recipe folders of an application family of its own (``<recipe>/Dockerfile``,
#: ``<recipe>/recipe.yaml``), and a ``snapshots.yaml`` (``snapshots:``) and ``provides.yaml``
#: (``families:``) whose entries add to the built-in tables (see
#: :func:`pytest_spider2v.environments.snapshots.recipes_dirs`).
recipes_dirs: Registry[Path] = Registry("recipes folder")


#: A registry of what a task names: its setup steps, getters and metrics.
TaskNames = Registry[SetupStep] | Registry[Getter] | Registry[Metric]


#: Entry-point group of the extensions: modules that fill the registries on import. The built-in
#: steps, getters, metrics, agents, providers and task formats are registered here like any
#: third-party extension, so the core loads them without naming (or importing) any of them.
EXTENSIONS_GROUP = "pytest_spider2v"
_loaded: dict[str, ModuleType] = {}


def load_extensions() -> list[tuple[str, ModuleType]]:
    """Import every module of the :data:`EXTENSIONS_GROUP` entry points (once each); the
    entry points' names and modules, in the group's order."""
    loaded = []
    for entry_point in importlib.metadata.entry_points(group=EXTENSIONS_GROUP):
        if entry_point.value not in _loaded:
            _loaded[entry_point.value] = entry_point.load()
        loaded.append((entry_point.name, _loaded[entry_point.value]))
    return loaded


def import_submodules(package: str, path: Iterable[str]) -> None:
    """Import every module of ``package`` (its ``__name__`` and ``__path__``): an ``apps/``
    folder's modules register themselves on import, so adding an application's steps, getters,
    metrics or near misses is adding a file, with no list to keep."""
    for module in pkgutil.iter_modules(list(path)):
        importlib.import_module(f"{package}.{module.name}")


#: The file beside an extension package's ``__init__.py`` that :func:`load_index` reads.
INDEX_FILE = "registrations.json"
#: Set while an indexed module is imported for a name: see :meth:`Registry.add`.
_indexed_loading = 0
#: While an index is being written: every registration, in order (see :func:`registrations_of`).
_recording: list[tuple[Registry[object], str, str]] | None = None


def load_index(package: str, path: Iterable[str]) -> None:
    """Register the names ``package``'s index file lists (:data:`INDEX_FILE`, written by
    ``spider2v-registrations --write``) without importing a module of the package: start-up and
    collection, which check, mark and describe the names tasks use, pay for none of them.

    The first use of an indexed name (:meth:`Registry.entry`, :meth:`~Registry.get`: a run, or
    ``--validate``'s fingerprints) imports every module the indexes list, in their order: what
    importing the packages did before they had an index. A module may do more on import than
    register names (a step module adds a wait to ``launch``), so a run never sees a part of it.
    A name no index lists imports every module of the packages before it is called unknown, so a
    module missing from a stale index still registers (a unit test keeps the index current)."""
    index_path = next((Path(folder) / INDEX_FILE for folder in path if (Path(folder) / INDEX_FILE).is_file()), None)
    if index_path is None:  # not written yet: every module registers on import, as without an index
        for module in package_modules(package, list(path)):
            importlib.import_module(module)
        return
    written = json.loads(index_path.read_text(encoding="utf-8"))
    registries = sys.modules[__name__]
    for registry_name, names in written["registries"].items():
        target = getattr(registries, registry_name)
        target.index({name: Indexed(Meta(**entry.get("meta", {})), entry.get("unavailable"),
                                    None if entry.get("parameters") is None else tuple(entry["parameters"]))
                      for name, entry in names.items()})
    _unimported.extend(written["modules"])
    _unsearched_packages.append(package)


#: The indexed modules not imported yet, in their indexes' order.
_unimported: list[str] = []
#: The indexed packages whose every module has not been imported yet.
_unsearched_packages: list[str] = []


def package_modules(package: str, path: list[str] | None = None) -> list[str]:
    """Every module of ``package``, in :func:`pkgutil.walk_packages` order."""
    found_path = path if path is not None else list(importlib.import_module(package).__path__)
    return [info.name for info in pkgutil.walk_packages(found_path, f"{package}.")]


def _import_indexed_modules(modules: list[str] | None = None) -> None:
    """Import the indexed modules not imported yet (or ``modules``), their registrations giving
    way to an installed extension's own of the same name (see :meth:`Registry.add`)."""
    global _indexed_loading
    todo = _unimported if modules is None else modules
    _indexed_loading += 1
    try:
        while todo:
            importlib.import_module(todo.pop(0))
    finally:
        _indexed_loading -= 1


def registrations_of(*packages: str) -> list[tuple[Registry[object], str, str]]:
    """Every registration that importing ``packages`` and all their modules makes, as (registry,
    name, the module whose top-level code registers it): what their indexes list. Run in a
    process that has imported none of their modules yet (``spider2v-registrations`` does), since
    a module registers only when first imported."""
    global _recording
    _recording = []
    found: list[tuple[Registry[object], str, str]] = []
    try:
        for package in packages:
            for module in package_modules(package):
                importlib.import_module(module)
        found = [(registry, name, module) for registry, name, module in _recording]
    finally:
        _recording = None
    return found


def _registering_module() -> str:
    """The module whose top-level code is running the registration (a decorator's, or a
    ``declared.py`` table's)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_name != "<module>":
        frame = frame.f_back  # type: ignore[assignment]
    return frame.f_globals.get("__name__", "") if frame is not None else ""


def is_pytest_plugin(module: ModuleType) -> bool:
    """Whether an extension module implements pytest hooks (command-line flags, report sections,
    a mode such as ``--validate``): the plugin registers such a module with pytest."""
    return any(name.startswith("pytest_") and callable(value) and not isinstance(value, ModuleType)
               for name, value in vars(module).items())
