"""The Python packages a requirements file lists or a ``pip install`` names, by distribution name.

Requirements files are read both by the file dispatch (:mod:`.files`) and by the shell reader
(:mod:`.shell`: a here-document written to one), and pip's arguments both in a shell's
``pip install`` and in ``python -m pip install``, so no one reader owns them. Versions are not read: a need is a distribution.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from pytest_spider2v.environments.snapshots import normalize_distribution
from pytest_spider2v.tasks.needs.facts import Facts, Need, hosts

#: The distribution name at the start of a requirement (``pandas>=2``, ``apache-airflow[celery]``).
REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)")
#: The names a requirements file has (``requirements.txt``, ``requirements-dev.txt``).
REQUIREMENTS_FILE = re.compile(r"requirements.*\.txt")
#: Options of ``pip install`` that take a value, which is not a distribution.
PIP_VALUE_OPTIONS = frozenset("-c --constraint -e --editable -i --index-url --extra-index-url -f --find-links -t "
                              "--target --prefix --root".split())


def read_requirements(text: str, first_line: int, facts: Facts, where: str = "line") -> None:
    """Each requirement's distribution, and the hosts of the URLs pip fetches (a bare URL, a VCS link)."""
    for number, line in enumerate(text.splitlines(), first_line):
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-")):
            continue
        if "://" in line and " @ " not in line:  # a bare URL or a VCS link: fetched by pip
            facts.needs += [Need("host", host, f"{where} {number}") for host in hosts(line)]
            continue
        match = REQUIREMENT.match(line)
        if match:
            facts.needs.append(Need("package", normalize_distribution(match.group(1)), f"{where} {number}"))


def read_pip_arguments(args: list[str], line: str, facts: Facts) -> None:
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
            facts.needs += [Need("host", host, line) for host in hosts(arg)]
        elif arg.startswith("-") or arg == "." or "/" in arg:
            continue
        elif (match := REQUIREMENT.match(arg)) is not None:
            facts.needs.append(Need("package", normalize_distribution(match.group(1)), line))
