"""Guest helpers for the dbt reference solutions: work on a dbt project from a shell, as an agent
with a terminal and an editor would.

An agent would open a file, change a few lines and save, then run dbt in the terminal and read
what it printed. These helpers do the same without typing every key: :func:`edit` replaces text
the way an editor's find-and-replace does (and fails when the text is not there, so a solution
never silently edits nothing), :func:`write` saves a whole file, :func:`dbt` runs one dbt
command in the project folder and fails the cell, showing dbt's output, when dbt fails. All
results are computed in the guest by dbt itself; nothing is carried in.

dbt is the one the desktop's terminals use (``conda activate dbt`` in ``~/.bashrc``): the same
executable is on the guest's ``PATH``. Every cell that imports this module gets it shipped with
it by the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

import os
import socket
import subprocess
import textwrap
import time
from pathlib import Path

PROJECTS = Path.home() / "projects"
#: a cell must finish within the action timeout (90 s), so one dbt command gets less than that
DBT_TIMEOUT = 80.0


def project(name: str) -> Path:
    """The folder of the dbt project ``~/projects/<name>``."""
    folder = PROJECTS / name
    if not (folder / "dbt_project.yml").is_file():
        raise FileNotFoundError(f"{folder} is not a dbt project (no dbt_project.yml)")
    return folder


def write(path: Path, text: str) -> None:
    """Save ``text`` (dedented, without its first newline) as the whole file ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path`` by ``new``, as an editor's replace does."""
    text = path.read_text(encoding="utf-8")
    found = text.count(old)
    if found != 1:
        raise ValueError(f"{path}: expected {old!r} once, found it {found} times")
    path.write_text(text.replace(old, new), encoding="utf-8")


def dbt(folder: Path, *args: str, timeout: float = DBT_TIMEOUT) -> str:
    """Run ``dbt ARGS`` in ``folder`` and return what it printed; a failing dbt fails the cell."""
    done = subprocess.run(["dbt", *args], cwd=folder, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    print(done.stdout[-3000:], done.stderr[-2000:], sep="\n")
    if done.returncode != 0:
        raise RuntimeError(f"dbt {' '.join(args)} exited with {done.returncode}")
    return done.stdout


def serve_docs(folder: Path, port: int, timeout: float = 60.0) -> None:
    """Start ``dbt docs serve`` in the background, as in a terminal left open, and wait until it
    answers on ``port``. Its output goes to ``logs/docs-serve.log`` in the project."""
    (folder / "logs").mkdir(exist_ok=True)
    with open(folder / "logs" / "docs-serve.log", "ab") as log:
        subprocess.Popen(["dbt", "docs", "serve", "--port", str(port), "--no-browser"], cwd=folder,
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"dbt docs serve did not answer on port {port} within {timeout:g} s")
