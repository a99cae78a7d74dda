"""An extension package's index of what its modules register, so that start-up imports none of them.

    spider2v-registrations [--write | --check] [PACKAGE ...]

Every ``pytest`` command, ``--collect-only`` and ``-k`` included, checks the step types, getters
and metrics its tasks name, marks account tasks and says which cannot run here, from registration
metadata alone. Importing the built-in steps, getters and metrics for that cost about 90 ms of
every command (two cores); their packages call :func:`pytest_spider2v.registry.load_index`
instead, which reads the ``registrations.json`` this command writes beside the package's
``__init__.py``: each name with the module registering it, its metadata, why it cannot run (a
declared-only name) and a setup step's parameters. The indexed modules are imported when a
name is first used.

Without an option the indexes are printed. ``--write`` writes them; ``--check`` exits 1 when
one is out of date (a unit test runs it, so a new module or a changed signature cannot be
forgotten). The default packages are the built-in ones (:data:`BUILT_IN`); an installed
extension may index its own package the same way, or simply register on import.

Run it in a fresh process: a module registers only when it is first imported, so the command
imports nothing else before it records.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from pathlib import Path
from typing import Any

from pytest_spider2v import registry

#: The built-in packages whose ``__init__`` loads an index (see the module's docstring).
BUILT_IN = ("pytest_spider2v.steps", "pytest_spider2v.getters", "pytest_spider2v.metrics")
ABOUT = ("What this package's modules register, by registry and name (the module, the metadata, why a "
         "declared name cannot run, a setup step's parameters), read at start-up instead of importing "
         "them. Generated: spider2v-registrations --write; a unit test checks it is current.")


def indexes(packages: tuple[str, ...] | list[str]) -> dict[str, dict[str, Any]]:
    """Each package's index, as :data:`~pytest_spider2v.registry.INDEX_FILE` holds it."""
    names = {id(value): key for key, value in vars(registry).items() if isinstance(value, registry.Registry)}
    out: dict[str, dict[str, Any]] = {package: {"about": ABOUT, "modules": [], "registries": {}} for package in packages}
    for target, name, module in registry.registrations_of(*packages):
        package = next((p for p in packages if module == p or module.startswith(f"{p}.")), None)
        if package is None:
            continue  # registered by a module of another package, which indexes it
        if module not in out[package]["modules"]:
            out[package]["modules"].append(module)
        entry = target.entry(name)
        indexed: dict[str, Any] = {"module": module}
        if entry.meta:
            not_json = sorted(key for key, value in entry.meta.items() if not isinstance(value, str))
            if not_json:
                raise SystemExit(f"{module}: {target.kind} '{name}' has metadata an index cannot hold ({', '.join(not_json)}): "
                                 "register it on import instead")
            indexed["meta"] = dict(entry.meta)
        if entry.unavailable is not None:
            indexed["unavailable"] = entry.unavailable
        if target is registry.setup_steps and callable(entry.obj):
            indexed["parameters"] = registry.parameter_list(inspect.signature(entry.obj))
        out[package]["registries"].setdefault(names[id(target)], {})[name] = indexed
    for package, index in out.items():
        walked = registry.package_modules(package)
        index["modules"] = sorted(index["modules"], key=walked.index)  # the order a run imports them in
        index["registries"] = {kind: dict(sorted(entries.items())) for kind, entries in sorted(index["registries"].items())}
    return out


def _dumped(index: dict[str, Any]) -> str:
    """The index as JSON, one line per name (a diff shows the names that changed)."""
    lines = ["{", f' "about": {json.dumps(index["about"])},', ' "modules": [',
             *(f"  {json.dumps(m)}," for m in index["modules"][:-1]), *(f"  {json.dumps(m)}" for m in index["modules"][-1:]),
             " ],", ' "registries": {']
    kinds = list(index["registries"].items())
    for k, (kind, names) in enumerate(kinds):
        lines.append(f"  {json.dumps(kind)}: {{")
        rows = list(names.items())
        lines += [f"   {json.dumps(name)}: {json.dumps(entry)}" + ("," if n < len(rows) - 1 else "")
                  for n, (name, entry) in enumerate(rows)]
        lines.append("  }" + ("," if k < len(kinds) - 1 else ""))
    return "\n".join([*lines, " }", "}"]) + "\n"


def index_path(package: str) -> Path:
    module = sys.modules[package]
    return Path(list(module.__path__)[0]) / registry.INDEX_FILE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spider2v-registrations", description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", default=list(BUILT_IN), metavar="PACKAGE")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write each package's index file")
    mode.add_argument("--check", action="store_true", help="exit 1 if an index file is out of date")
    args = parser.parse_args(argv)
    stale = []
    for package, index in indexes(args.packages).items():
        text = _dumped(index)
        path = index_path(package)
        if args.write:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({sum(len(names) for names in index['registries'].values())} names)")
        elif args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(package)
        else:
            print(text, end="")
    if stale:
        print(f"out of date: {', '.join(stale)}; run spider2v-registrations --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
