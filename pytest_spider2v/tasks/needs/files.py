"""What one host file needs: the file, or each member of a zip archive, read by its kind.

Python files, notebooks, shell scripts and requirements files go to their readers (what a
notebook's cells need is kept apart: it is a need only if the task runs the notebook); anything else
(data, YAML settings and compose files, whose configuration runs through a program that is the
need) is not read, nor are a project's tests, caches and hidden folders. A file's analysis is
cached while the file is unchanged, since the same scripts are named by many tasks.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import replace
from functools import lru_cache
from pathlib import Path, PurePosixPath

from pytest_spider2v.tasks.needs.facts import Facts
from pytest_spider2v.tasks.needs.notebooks import read_notebook
from pytest_spider2v.tasks.needs.packages import REQUIREMENTS_FILE, read_requirements
from pytest_spider2v.tasks.needs.python_code import read_python
from pytest_spider2v.tasks.needs.shell import read_shell

#: Larger files (data, databases) are never code worth reading.
MAX_FILE_BYTES = 2_000_000
#: Folders of a project whose files the task does not run: tests, caches, metadata, checkpoints.
SKIPPED_PARTS = re.compile(r"^(\..*|__pycache__|__MACOSX|tests?|.*_tests?|.*\.egg-info|node_modules|site-packages)$")
#: Files of a project that are its tests.
SKIPPED_FILES = re.compile(r"^(test_.*\.py|.*_test\.py|conftest\.py)$")


def analyse_file(path: Path) -> Facts:
    """The needs one host file states (cached while the file is unchanged)."""
    stat = path.stat()
    return _analyse_cached(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1024)
def _analyse_cached(path: Path, mtime_ns: int, size: int) -> Facts:
    facts = Facts()
    if size > MAX_FILE_BYTES and path.suffix != ".zip":
        return facts
    if path.suffix == ".zip":
        _archive(path, facts)
    else:
        _content(path.name, path.read_bytes(), "", facts)
    return facts


def _archive(path: Path, facts: Facts) -> None:
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
    if REQUIREMENTS_FILE.fullmatch(name):
        return "requirements"
    return None


def _content(name: str, data: bytes, member: str, facts: Facts, built: bool = False) -> None:
    """Analyse one file's bytes into ``facts``; ``member`` is its path in an archive, if it is in
    one (locations then start with it), ``built`` whether a Dockerfile sits beside it."""
    kind = _kind(name)
    if kind is None:
        return
    text = data.decode("utf-8", errors="replace")
    found = Facts()
    if kind == "python":
        facts.modules.add(PurePosixPath(name).stem)
        read_python(text, 1, found)
    elif kind == "notebook":
        read_notebook(text, found)
    elif kind == "shell":
        read_shell(text, 1, found)
    else:
        read_requirements(text, 1, found)
    if member:
        found.needs = [replace(n, where=f"{member} {n.where}") for n in found.needs]
    found.needs = [replace(n, origin=member) if n.dags else n for n in found.needs]
    if kind == "requirements":
        facts.requirements.append((name, built, found.needs))
    else:  # a notebook's code runs only if the task runs it
        (facts.notebook_needs if kind == "notebook" else facts.needs).extend(found.needs)
        facts.mentions.append((member, text))
    facts.modules |= found.modules
    facts.created_envs |= found.created_envs
    facts.installs_from |= found.installs_from
    facts.executes_notebooks |= found.executes_notebooks
