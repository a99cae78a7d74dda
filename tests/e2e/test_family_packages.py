"""The jupyter and dagster images import every package their Spider2-V tasks' code imports, and
the dagster image's ``conda create`` works offline as the original tasks use it.

What the tasks import is read from the sample (notebooks and Python files in each task folder
and in the zips it copies into the guest), less the standard library and the tasks' own modules;
each import is either importable in the family's environment or listed in :data:`NOT_PROVIDED`
with the reason, so a grown sample cannot bring an unnoticed import.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest

from pytest_spider2v.environments.snapshots import image_name
from tests.support.shared import require, sample

pytestmark = pytest.mark.e2e

#: family -> the interpreter the tasks' code runs in
PYTHON = {"jupyter": "/opt/jupyter/bin/python", "dagster": "/opt/dagster/bin/python"}
#: imports the images do not provide, and why (the tasks that use them skip or do not run them)
NOT_PROVIDED = {
    "nltk": "the jupyter tasks that import it start from its absence (their fix, `pip install nltk` "
            "and its data, needs the internet)",
    "dagster_airbyte": "needs an Airbyte server (not in any image)",
    "airflow.providers.mysql": "mysqlclient must be compiled, and the two tasks need a MariaDB server "
                               "in the dagster image",
}


def provided(module: str) -> bool:
    return not any(module == name or module.startswith(name + ".") for name in NOT_PROVIDED)


def imports_of(source: str) -> set[str]:
    """Modules a Python source imports, dotted (IPython magics and shell lines dropped)."""
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("!", "%")))
    try:
        with warnings.catch_warnings():  # notebooks' own invalid escapes are not this test's concern
            warnings.simplefilter("ignore")
            tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    return names


def sources(name: str, data: bytes) -> Iterator[str]:
    if name.endswith(".py"):
        yield data.decode(errors="replace")
    elif name.endswith(".ipynb"):
        try:
            cells = json.loads(data).get("cells", [])
        except ValueError:
            return
        for cell in cells:
            if cell.get("cell_type") == "code":
                text = cell.get("source", "")
                yield "".join(text) if isinstance(text, list) else text


def local_modules(names: list[str]) -> set[str]:
    """Module names a task's own files provide (its .py files and package folders)."""
    local = set()
    for name in names:
        path = PurePosixPath(name)
        if path.suffix == ".py":
            local.add(path.stem)
            local.update(part for part in path.parts[:-1])
    return local


def task_imports(folder: Path) -> set[str]:
    """What a task's code imports from outside the standard library and the task itself (its
    files, and the project its init.sh names: ``PROJECT_NAME=harry-potter-potions``)."""
    files: list[tuple[str, bytes]] = []
    for path in folder.rglob("*"):
        if path.suffix in (".py", ".ipynb"):
            files.append((path.relative_to(folder).as_posix(), path.read_bytes()))
        elif path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                files += [(n, archive.read(n)) for n in archive.namelist() if n.endswith((".py", ".ipynb"))]
    found = {module for name, data in files for source in sources(name, data) for module in imports_of(source)}
    local = local_modules([name for name, _ in files])
    init = (folder / "init.sh").read_text(errors="replace") if (folder / "init.sh").exists() else ""
    local |= {name.replace("-", "_") for name in re.findall(r"(?:PROJECT_NAME=|--name\s+)([\w-]+)", init)}
    return {m for m in found
            if m.split(".")[0] not in local | set(sys.stdlib_module_names) and re.fullmatch(r"[\w.]+", m)}


def family_imports(family: str) -> set[str]:
    folder = require(sample(family))
    return set().union(*(task_imports(task) for task in folder.iterdir() if task.is_dir()))


def built(image: str) -> bool:
    return subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode == 0


@pytest.mark.parametrize("family", sorted(PYTHON))
@pytest.mark.sample
def test_family_image_imports_what_its_tasks_import(family: str) -> None:
    image = image_name(family)
    if not built(image):
        pytest.skip(f"{image} is not built")
    wanted = sorted(filter(provided, family_imports(family)))
    assert wanted, f"no imports found in the {family} sample"
    check = ("import importlib, sys\nbad = []\nfor name in sys.argv[1:]:\n    try:\n"
             "        importlib.import_module(name)\n    except Exception as exc:\n"
             "        bad.append(f'CANNOT IMPORT {name}: {exc!r}')\nprint('\\n'.join(bad))")
    result = subprocess.run(["docker", "run", "--rm", "-e", "AIRFLOW_HOME=/tmp/airflow", image,
                             PYTHON[family], "-c", check, *wanted],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    failures = [line for line in result.stdout.splitlines() if line.startswith("CANNOT IMPORT ")]
    assert failures == [], f"{family} image:\n" + "\n".join(failures)


@pytest.mark.sample
def test_conda_create_then_offline_pip_install_and_scaffold_in_the_dagster_image() -> None:
    """Task 1a57b227: init.sh runs `conda create -n dagster python=3.11 -y` and activates it; the
    agent runs `pip install dagster dagster-webserver` and `dagster project scaffold --name
    dagster-proj`, all without a network. The project's pyproject.toml is the one the task's
    Dagster (1.7) wrote, which the task compares line by line."""
    image = image_name("dagster")
    if not built(image):
        pytest.skip(f"{image} is not built")
    folder = require(sample("dagster", "1a57b227-d047-4dc9-8a33-2d4d02788667"))
    script = (
        f"{(folder / 'init.sh').read_text()}\n"
        "exec 1>&3 2>&4\n"
        "source /home/user/anaconda3/etc/profile.d/conda.sh && conda activate dagster\n"
        "test \"$(command -v python)\" = /home/user/anaconda3/envs/dagster/bin/python\n"
        "pip install --no-index dagster dagster-webserver >/dev/null\n"
        "cd /home/user && dagster project scaffold --name dagster-proj >/dev/null\n"
        f"{(folder / 'eval.sh').read_text()}\n"
        "echo '--- pyproject.toml'; cat /home/user/dagster-proj/pyproject.toml\n"
    )
    result = subprocess.run(["docker", "run", "--rm", "--network", "none", image, "bash", "-c", "exec 3>&1 4>&2; " + script],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    checks = [line for line in result.stdout.splitlines() if line.startswith("Check ")]
    assert checks and all("succeeded" in line for line in checks), result.stdout + result.stderr
    written = result.stdout.split("--- pyproject.toml\n", 1)[1]
    assert written.splitlines() == (folder / "pyproject.toml").read_text().splitlines()
