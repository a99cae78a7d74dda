"""What one file says it needs, and how an address in its text is told apart.

Every reader of a language (:mod:`.python_code`, :mod:`.shell`, :mod:`.packages`,
:mod:`.notebooks`) fills the same :class:`Facts` with :class:`Need` records, and all of them find
internet hosts in URLs the same way (:func:`hosts`), so these live apart from any one reader.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

NeedKind = Literal["file", "program", "conda_env", "package", "host"]


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
    #: host: the DAGs whose task code names it (see
    #: :func:`~pytest_spider2v.tasks.needs.python_code.read_python`); it is a need only when
    #: the task names one of them somewhere else (empty: always a need)
    dags: tuple[str, ...] = ()
    #: host with ``dags``: the file (and archive member) it is in, whose own text does not count
    origin: str = ""


@dataclass
class Facts:
    """What one file (or archive) says; locations are relative to the file."""

    needs: list[Need] = field(default_factory=list)
    #: Python modules the file (archive) defines, or writes (``cat > jobs.py``, ``open("jobs.py", "w")``)
    modules: set[str] = field(default_factory=set)
    created_envs: set[str] = field(default_factory=set)  #: conda environments it creates
    #: requirements files: (file name, built into an image by a Dockerfile beside it, their needs)
    requirements: list[tuple[str, bool, list[Need]]] = field(default_factory=list)
    installs_from: set[str] = field(default_factory=set)  #: file names given to ``pip install -r``
    #: (archive member or "", text) of each code file read: where a task may name a DAG
    mentions: list[tuple[str, str]] = field(default_factory=list)
    #: what notebooks' code cells need: needs only when the task runs its notebooks
    notebook_needs: list[Need] = field(default_factory=list)
    #: whether the code executes notebooks itself (``jupyter nbconvert --execute``, papermill, ...)
    executes_notebooks: bool = False


#: A URL: its scheme and its authority (``user@host:port``).
URL = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]*)://([^\s/'\"<>?#`\\]*)")
#: URL schemes that never leave the machine.
LOCAL_SCHEMES = {"file", "sqlite", "duckdb", "about", "data", "chrome"}


def hosts(text: str) -> Iterator[str]:
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


def is_internet_host(host: str) -> bool:
    """A public name or address, as opposed to a single-label service name or a private address."""
    try:
        return ipaddress.ip_address(host).is_global
    except ValueError:
        return "." in host
