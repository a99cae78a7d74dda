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
import pkgutil
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


class Registry(Generic[T]):
    """A named collection of implementations of one kind ("metric", "agent", ...)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[T]] = {}
        self._deferred: list[str] = []

    def load_on_first_use(self, package: str, *modules: str) -> None:
        """Import ``package``'s ``modules`` (which register here) only when this registry is first
        read: an extension whose implementations are costly to import and that no collection needs
        (agents, near-miss makers) registers its names when a run asks for one, so that every
        ``pytest`` start-up, ``--collect-only`` and ``-k`` included, does not pay for it."""
        self._deferred += [f"{package}.{module}" for module in modules]

    @property
    def _complete(self) -> dict[str, Entry[T]]:
        """The entries, after the deferred modules have registered theirs."""
        while self._deferred:
            importlib.import_module(self._deferred.pop(0))
        return self._entries

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
        self._entries[name] = Entry(name, obj, meta)

    def declare(self, name: str, reason: str, **meta: Unpack[Meta]) -> None:
        """Know a name without implementing it; using it raises :class:`Unavailable`."""
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
        try:
            return self._complete[name]
        except KeyError:
            raise UnknownName(self._unknown_message(name)) from None

    def get(self, name: str) -> T:
        entry = self.entry(name)
        if entry.obj is None:
            raise Unavailable(self.kind, name, entry.unavailable or "not implemented")
        return entry.obj

    def _unknown_message(self, name: str) -> str:
        close = difflib.get_close_matches(name, list(self._complete), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        return f"unknown {self.kind} '{name}'{hint}"

    def __contains__(self, name: object) -> bool:
        return name in self._complete

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._complete))

    def available(self) -> list[str]:
        return sorted(n for n, e in self._complete.items() if e.obj is not None)


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


def check_parameters(fn: Callable[..., object], leading: int, params: Mapping[str, object]) -> str | None:
    """Why ``fn(<leading positional>, **params)`` would not bind, or None if it would."""
    sig = _signature(fn)
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


def is_pytest_plugin(module: ModuleType) -> bool:
    """Whether an extension module implements pytest hooks (command-line flags, report sections,
    a mode such as ``--validate``): the plugin registers such a module with pytest."""
    return any(name.startswith("pytest_") and callable(value) and not isinstance(value, ModuleType)
               for name, value in vars(module).items())
