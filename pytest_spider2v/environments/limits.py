"""Resource limits of an environment: memory, CPUs, processes and disk.

Agent code is arbitrary Python run inside the container, so without limits one memory hog, fork
bomb or file of zeros takes down the host and every parallel worker with it. Each snapshot's
limits are declared in ``snapshots.yaml`` (a top-level ``limits:`` for every snapshot, an entry's
own ``limits:`` over it, field by field), because what the apps need differs per family; a run's
options (``--env-memory``, ``--env-cpus``, ``--env-pids``, ``--env-disk``) override them, again
field by field. A value of 0 lifts that limit. Disk is the size of the container's writable layer
(what it wrote, over its image).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmg]?)b?", re.IGNORECASE)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}
#: Docker refuses memory limits below 6 MiB.
MIN_MEMORY = 6 * 2**20


def parse_memory(value: str | int) -> int:
    """Bytes of a Docker-style size: ``512m``, ``3g``, ``1.5g`` or a plain byte count; 0 lifts the limit."""
    if isinstance(value, int):
        number = value
    else:
        match = _SIZE.fullmatch(value.strip())
        if match is None:
            raise ValueError(f"memory size {value!r}: expected a number with an optional k, m or g (e.g. 3g, 512m)")
        number = int(float(match[1]) * _UNITS[match[2].lower()])
    if number != 0 and number < MIN_MEMORY:
        raise ValueError(f"memory size {value!r}: Docker needs at least 6m (use 0 for no limit)")
    return number


def format_memory(size: int) -> str:
    """``3g``, ``512m``: the largest unit that states the size exactly, as users write it."""
    for suffix in ("g", "m", "k"):
        if size % _UNITS[suffix] == 0:
            return f"{size // _UNITS[suffix]}{suffix}"
    return str(size)


@dataclass(frozen=True)
class Limits:
    """Limits of one container; None leaves a field to the layer below, 0 means unlimited."""

    memory: int | None = None  # bytes
    cpus: float | None = None
    pids: int | None = None
    disk: int | None = None  # bytes of the writable layer

    @classmethod
    def from_options(cls, memory: str | int | None = None, cpus: float | str | None = None,
                     pids: int | str | None = None, disk: str | int | None = None) -> Limits:
        """Checked limits from option values (strings from YAML or the command line, or numbers)."""
        limits = cls(
            memory=None if memory is None else parse_memory(memory),
            cpus=None if cpus is None else float(cpus),
            pids=None if pids is None else int(pids),
            disk=None if disk is None else parse_memory(disk),
        )
        if limits.cpus is not None and limits.cpus < 0:
            raise ValueError(f"cpus {cpus!r}: must be a positive number of CPUs (0 for no limit)")
        if limits.pids is not None and limits.pids < 0:
            raise ValueError(f"pids {pids!r}: must be a positive process count (0 for no limit)")
        return limits

    @classmethod
    def from_mapping(cls, data: Any, where: str) -> Limits:
        """Limits from a ``limits:`` block of ``snapshots.yaml``; unknown keys are errors."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: must be a mapping of memory, cpus and pids, got {data!r}")
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise ValueError(f"{where}: unknown limits {sorted(unknown)} (known: memory, cpus, pids, disk)")
        try:
            return cls.from_options(data.get("memory"), data.get("cpus"), data.get("pids"), data.get("disk"))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None

    def over(self, base: Limits) -> Limits:
        """These limits where set, ``base`` elsewhere."""
        return Limits(
            memory=base.memory if self.memory is None else self.memory,
            cpus=base.cpus if self.cpus is None else self.cpus,
            pids=base.pids if self.pids is None else self.pids,
            disk=base.disk if self.disk is None else self.disk,
        )


def snapshot_limits(path: Path, *added: Path) -> dict[str, Limits]:
    """Each snapshot's limits from ``snapshots.yaml``, the top-level ``limits:`` under its own;
    ``added`` are the tables of recipes folders that extensions register, whose snapshots run
    under this table's top-level limits too.

    The build command reads the same table for recipes and ports and has no use for limits,
    so they are read here, for the providers that apply them.
    """
    data = yaml.safe_load(path.read_text()) or {}
    base = Limits.from_mapping(data.get("limits") or {}, f"{path}: limits")
    result: dict[str, Limits] = {}
    for table in (path, *added):
        entries = (data if table == path else yaml.safe_load(table.read_text()) or {}).get("snapshots") or {}
        for name, entry in entries.items():
            own = entry.get("limits") if isinstance(entry, Mapping) else None
            result[str(name)] = Limits.from_mapping(own or {}, f"{table}: {name}.limits").over(base)
    return result
