"""Extension packages indexed by ``registrations.json``: names known without importing modules.

The built-in steps, getters and metrics load this way (see
:mod:`pytest_spider2v.cli.registrations`), so each rule is tested twice: on the shipped indexes,
and on a toy package written in the test, with its negative cases.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v import registry
from pytest_spider2v.cli import registrations
from pytest_spider2v.registry import Indexed, Registry, UnknownName, check_parameters, parameter_list

BUILT_IN_ROOMS = ("steps", "getters", "metrics")


def test_the_built_in_indexes_are_current() -> None:
    """A new module, a renamed step or a changed signature without ``--write`` fails here."""
    done = subprocess.run([sys.executable, "-m", "pytest_spider2v.cli.registrations", "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("room", BUILT_IN_ROOMS)
def test_every_module_of_an_apps_folder_is_in_its_index(room: str) -> None:
    """An ``apps/`` module registering a name is in the index: no list is kept by hand, the
    generator walks the folder."""
    folder = Path(registry.__file__).parent / room / "apps"
    index = json.loads((folder.parent / registry.INDEX_FILE).read_text(encoding="utf-8"))
    indexed_modules = {entry["module"] for names in index["registries"].values() for entry in names.values()}
    modules = sorted(f"pytest_spider2v.{room}.apps.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__")
    assert modules and [m for m in modules if m not in indexed_modules] == []


def test_a_steps_first_use_imports_what_the_package_import_did() -> None:
    """``launch`` waits for what it launched through waits other step modules add on import
    (JupyterLab's): the first use of any step loads them all, so a run sees the same ``launch``."""
    code = ("import json, sys; from pytest_spider2v import registry; registry.load_extensions()\n"
            "from pytest_spider2v.steps import builtin\n"
            "before = len(builtin.LAUNCH_WAITS); registry.setup_steps.get('launch')\n"
            "print(json.dumps([before, len(builtin.LAUNCH_WAITS), 'pytest_spider2v.steps.apps.jupyter' in sys.modules]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == [0, 1, True]


START_UP = """
import json, sys
from pytest_spider2v import registry
registry.load_extensions()
from pytest_spider2v.tasks.availability import accounts_used
print(json.dumps({
    "loaded": sorted(m for m in sys.modules if m.startswith(("pytest_spider2v.steps.", "pytest_spider2v.getters.",
                                                              "pytest_spider2v.metrics."))),
    "steps": len(list(registry.setup_steps)), "metrics": len(list(registry.metrics)),
    "account": registry.getters.describe("bigquery_datasets").meta.get("account"),
    "declared": registry.setup_steps.describe("act").unavailable,
    "loaded_after_describe": sorted(m for m in sys.modules if m.startswith("pytest_spider2v.getters.")),
}))
registry.metrics.get("compare_csv")
print(json.dumps(sorted(m for m in sys.modules if m.startswith("pytest_spider2v.metrics."))))
"""


def test_start_up_imports_no_built_in_step_getter_or_metric_module() -> None:
    """Loading the extensions imports none of their modules, yet lists, describes and declares
    every name; using a metric imports the modules the indexes list, not the helpers they do not
    import themselves."""
    done = subprocess.run([sys.executable, "-c", START_UP], capture_output=True, text=True, timeout=120, check=True)
    first, after_use = (json.loads(line) for line in done.stdout.splitlines())
    # the one exception: the DABench format parses its labels with the closed-form metric's reader
    assert first["loaded"] == ["pytest_spider2v.metrics.closed_form"] and first["loaded_after_describe"] == []
    assert first["steps"] > 40 and first["metrics"] > 20
    assert first["account"] == "bigquery" and "not implemented" in first["declared"]
    assert {"pytest_spider2v.metrics.tables", "pytest_spider2v.metrics.notebooks"} <= set(after_use)
    assert "pytest_spider2v.metrics.sheet_objects" not in after_use


# -- the rules, on a toy package written here ----------------------------------------------------

TOY_INIT = """
from pytest_spider2v.registry import load_index
load_index(__name__, __path__)
"""
TOY_STEPS = """
from pytest_spider2v.registry import setup_steps
@setup_steps.register("toy_open", account="toycloud")
def toy_open(ctx, path, mode="r", *, strict=False, **extra):
    pass
@setup_steps.register("toy_close")
def toy_close(ctx):
    pass
"""
TOY_DECLARED = """
from pytest_spider2v.registry import setup_steps
setup_steps.declare("toy_console", "needs the toy console")
"""
LATE = """
from pytest_spider2v.registry import setup_steps
@setup_steps.register("toy_late")
def toy_late(ctx):
    pass
"""


def _toy(tmp_path: Path, name: str, indexed: bool = True) -> Path:
    package = tmp_path / name
    (package / "apps").mkdir(parents=True)
    (package / "__init__.py").write_text(TOY_INIT)
    (package / "apps" / "__init__.py").write_text("")
    (package / "apps" / "opening.py").write_text(TOY_STEPS)
    (package / "declared.py").write_text(TOY_DECLARED)
    if indexed:
        code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from pytest_spider2v.cli import registrations; "
                f"sys.exit(registrations.main(['--write', {name!r}]))")
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, timeout=120)
    return package


def _run(tmp_path: Path, code: str) -> Any:
    """``code`` in a fresh interpreter (registries are process-wide), its last line's JSON."""
    prelude = f"import json, sys; sys.path.insert(0, {str(tmp_path)!r})\nfrom pytest_spider2v import registry\n"
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_an_indexed_name_is_known_and_described_without_imports_and_its_use_imports_every_module(
        tmp_path: Path) -> None:
    """A name's first use imports every indexed module, as importing the package did before its
    index: a module may do more on import than register its names."""
    package = _toy(tmp_path, "toyidx")
    index = json.loads((package / registry.INDEX_FILE).read_text())
    assert index["registries"]["setup_steps"]["toy_open"] == {
        "module": "toyidx.apps.opening", "meta": {"account": "toycloud"},
        "parameters": ["ctx", "path", "mode=", "*", "strict=", "**extra"]}
    assert index["registries"]["setup_steps"]["toy_console"] == {
        "module": "toyidx.declared", "unavailable": "needs the toy console"}
    out = _run(tmp_path, """
        import toyidx
        known = ["toy_open" in registry.setup_steps, "toy_console" in registry.setup_steps]
        described = registry.setup_steps.describe("toy_open")
        before = "toyidx.apps.opening" in sys.modules
        registry.setup_steps.get("toy_open")
        print(json.dumps([known, described.meta, str(described.signature), before,
                          "toyidx.apps.opening" in sys.modules, "toyidx.declared" in sys.modules]))
    """)
    assert out == [[True, True], {"account": "toycloud"}, "(ctx, path, mode=None, *, strict=None, **extra)",
                   False, True, True]


def test_describing_or_missing_a_name_imports_no_indexed_module(tmp_path: Path) -> None:
    """Collection describes every name its tasks use: one whose module another import already
    registered (a format importing a metric's parser) is described from its registration, and a
    name missing from a registry no index fills (an agent served by ``matches``), without
    importing the indexed modules a run imports on first use."""
    _toy(tmp_path, "toylazy")
    out = _run(tmp_path, """
        import toylazy
        import toylazy.declared  # registers toy_console directly, as another module's import would
        described = registry.setup_steps.describe("toy_console").unavailable
        missing = "no-such-agent" in registry.agents
        print(json.dumps([described, missing, "toylazy.apps.opening" in sys.modules]))
    """)
    assert out == ["needs the toy console", False, False]


def test_a_module_missing_from_a_stale_index_still_registers(tmp_path: Path) -> None:
    """A file added after the index was written is found when its name is looked up (every module
    of the package is imported then); an unknown name still fails, with suggestions."""
    package = _toy(tmp_path, "toystale")
    (package / "apps" / "late.py").write_text(LATE)
    out = _run(tmp_path, """
        import toystale
        found = "toy_late" in registry.setup_steps and callable(registry.setup_steps.get("toy_late"))
        try:
            registry.setup_steps.get("toy_opne")
        except registry.UnknownName as error:
            print(json.dumps([found, str(error)]))
    """)
    assert out[0] is True and "did you mean 'toy_open'" in out[1]
    stale = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r}); "
                            "from pytest_spider2v.cli import registrations; sys.exit(registrations.main(['--check', 'toystale']))"],
                           capture_output=True, text=True, timeout=120)
    assert stale.returncode == 1 and "out of date: toystale" in stale.stderr


def test_an_installed_extensions_registration_of_an_indexed_name_comes_first(tmp_path: Path) -> None:
    """The indexed module, imported later for another of its names, does not replace it."""
    _toy(tmp_path, "toyover")
    out = _run(tmp_path, """
        import toyover
        registry.setup_steps.add("toy_open", lambda ctx: "mine")
        registry.setup_steps.get("toy_close")  # imports toyover.apps.opening, which registers toy_open too
        print(json.dumps(registry.setup_steps.get("toy_open")(None)))
    """)
    assert out == "mine"


def test_a_package_without_an_index_registers_on_import(tmp_path: Path) -> None:
    _toy(tmp_path, "toyplain", indexed=False)
    out = _run(tmp_path, """
        import toyplain
        print(json.dumps(["toyplain.apps.opening" in sys.modules, registry.setup_steps.describe("toy_console").unavailable]))
    """)
    assert out == [True, "needs the toy console"]


def test_metadata_an_index_cannot_hold_is_refused(tmp_path: Path) -> None:
    package = _toy(tmp_path, "toycall", indexed=False)
    (package / "apps" / "opening.py").write_text(
        "from pytest_spider2v.registry import agents\nagents.add('toy', object, matches=lambda name: True)\n")
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r}); "
                           "from pytest_spider2v.cli import registrations; registrations.main(['toycall'])"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "agent 'toy' has metadata an index cannot hold (matches)" in done.stderr


def _f1(ctx, path, mode="r", *, strict=False, **extra): ...  # type: ignore[no-untyped-def]
def _f2(ctx, /, a, *rest, b, c=1): ...  # type: ignore[no-untyped-def]
def _f3(ctx, a=1, b=2): ...  # type: ignore[no-untyped-def]


@pytest.mark.parametrize("fn", [_f1, _f2, _f3])
@pytest.mark.parametrize("params", [{}, {"path": "x"}, {"path": "x", "paht": 1}, {"a": 1, "b": 2}, {"b": 1},
                                    {"a": 1, "zz": 2}, {"ctx": 1}])
def test_an_indexed_signature_binds_as_the_function_does(fn: Any, params: dict[str, object]) -> None:
    """Collection checks a step's parameters against the index's signature: the same verdict and
    message as against the function itself, for every kind of parameter."""
    indexed = Indexed({}, None, tuple(parameter_list(inspect.signature(fn))))
    signature = indexed.signature()
    assert signature is not None
    assert check_parameters(signature, 1, params) == check_parameters(fn, 1, params)


def test_describe_of_a_registered_name_reads_the_registration() -> None:
    toys: Registry[Any] = Registry("toy")
    toys.add("shout", lambda ctx, text: text.upper(), account="toycloud")
    toys.declare("whisper", "not built yet")
    assert str(toys.describe("shout").signature) == "(ctx, text)" and toys.describe("shout").meta == {"account": "toycloud"}
    assert toys.describe("whisper").unavailable == "not built yet"
    with pytest.raises(UnknownName):
        toys.describe("sing")


def test_the_command_names_the_built_in_packages() -> None:
    assert registrations.BUILT_IN == tuple(f"pytest_spider2v.{room}" for room in BUILT_IN_ROOMS)
