"""The linter sees every module of the package: an exclusion written for the project's tasks/
folder once matched the package's own tasks/ room too, and ruff passed without reading it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pytest_spider2v"


def test_ruff_reads_every_module_of_the_package() -> None:
    ruff = shutil.which("ruff") or str(REPO / ".venv/bin/ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (the dev extra has it)")
    shown = subprocess.run([ruff, "check", "--show-files", "pytest_spider2v"], cwd=REPO, capture_output=True,
                           text=True, check=True).stdout
    read = {Path(line.strip()).resolve() for line in shown.splitlines() if line.strip().endswith(".py")}
    modules = {p.resolve() for p in PACKAGE.rglob("*.py") if "solutions" not in p.relative_to(PACKAGE).parts[:1]}
    assert modules - read == set()
