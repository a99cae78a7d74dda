"""The testing kit as an extender gets it: the package's wheel alone in a fresh virtual environment
(its dependencies from the registry, plus pytest), and the example folder ``examples/provider-kit``
copied out of the checkout, whose tests run the kit's conformance suite against a toy provider of
their own and against the Docker provider.

The toy's half must pass wherever this runs; the Docker half must pass where Docker and the desktop
image are, and is skipped with its reason where they are not (then so is this test, once the toy's
half is checked).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pytest_spider2v.testing.provider_conformance import DesktopConformance, ProviderConformance
from tests.support.shared import REPO

pytestmark = pytest.mark.e2e

EXAMPLE = REPO / "examples" / "provider-kit"


def suite(cls: type) -> set[str]:
    """The names of the tests a conformance class holds."""
    return {name for name in dir(cls) if name.startswith("test_")}


def run(*args: str | Path, cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run a command with no trace of this checkout in its environment (no PYTHONPATH, no venv)."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def outcomes(report: Path) -> dict[str, dict[str, str]]:
    """JUnit XML as ``{class name: {test name: outcome}}``, the outcome "passed", "failed",
    "error" or "skipped: <reason>"."""
    found: dict[str, dict[str, str]] = {}
    for case in ElementTree.parse(report).iter("testcase"):
        child = next((c for c in case if c.tag in ("failure", "error", "skipped")), None)
        outcome = "passed" if child is None else child.tag.replace("failure", "failed")
        if child is not None and child.tag == "skipped":
            outcome = f"skipped: {child.get('message', '')}"
        found.setdefault(case.get("classname", "").rsplit(".", 1)[-1], {})[case.get("name", "")] = outcome
    return found


def test_the_conformance_suite_runs_from_the_installed_wheel_against_a_toy_and_docker(tmp_path: Path) -> None:
    source = tmp_path / "source"  # what the wheel is built from, so that building leaves the checkout as it was
    shutil.copytree(REPO / "pytest_spider2v", source / "pytest_spider2v",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    wheels = tmp_path / "wheels"
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, source,
                cwd=tmp_path, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("pytest_spider2v-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = run(python, "-m", "pip", "install", "--quiet", wheel, "pytest", cwd=tmp_path, timeout=1800)
    assert installed.returncode == 0, installed.stderr
    outside = tmp_path / "provider-kit"
    shutil.copytree(EXAMPLE, outside)
    where = run(python, "-c", "import pytest_spider2v; print(pytest_spider2v.__file__)", cwd=outside, timeout=60)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout + where.stderr

    done = run(python, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "--junitxml", "report.xml",
               cwd=outside, timeout=1800)

    assert done.returncode in (0, 1), done.stdout + done.stderr  # 1: a failed test, shown below
    found = outcomes(outside / "report.xml")
    assert found["TestToyProvider"] == dict.fromkeys(suite(ProviderConformance), "passed"), done.stdout
    docker = found["TestDockerProvider"]
    assert set(docker) == suite(DesktopConformance)
    skipped = {outcome for outcome in docker.values() if outcome.startswith("skipped")}
    if skipped and set(docker.values()) == skipped:
        pytest.skip(f"the toy provider conforms; the Docker provider's half was {skipped.pop()}")
    assert docker == dict.fromkeys(suite(DesktopConformance), "passed"), done.stdout
