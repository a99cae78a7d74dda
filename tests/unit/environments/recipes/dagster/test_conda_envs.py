"""The dagster image's ``conda create``/``conda remove`` (environments/dagster/conda_envs.py), run
on the host against a temporary anaconda3 folder and a small family environment."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_spider2v.environments.locations import RECIPES_DIR

SCRIPT = RECIPES_DIR / "dagster" / "conda_envs.py"


@pytest.fixture
def conda(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("conda_envs_under_test", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    root = tmp_path / "anaconda3"
    (root / "envs").mkdir(parents=True)
    (root / "etc").mkdir()
    monkeypatch.setattr(module, "ROOT", root)
    monkeypatch.setattr(module, "BASE_FILE", root / "etc" / "spider2v-base-env")
    return module


@pytest.fixture(scope="module")
def family_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A family environment (as /opt/dagster is) with a module and a console script."""
    base = tmp_path_factory.mktemp("opt") / "family"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(base)], check=True)
    site = base / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    (site / "familypkg.py").write_text("WHERE = 'family'\n")
    (base / "bin" / "family-tool").write_text(f"#!{base}/bin/python\nimport sys, familypkg\n"
                                              "print(sys.prefix, familypkg.WHERE)\n")
    (base / "bin" / "family-tool").chmod(0o755)
    return base


def test_parse_create_reads_the_tasks_command_line(conda: ModuleType) -> None:
    assert conda.parse_create(["-n", "dagster", "python=3.11", "-y"]) == ("dagster", "3.11", [], True)
    assert conda.parse_create(["--name=x", "pandas=2.2", "-c", "conda-forge"]) == ("x", None, ["pandas=2.2"], False)


@pytest.mark.parametrize("argv, message", [
    (["python=3.11"], "usage: conda create -n NAME"),
    (["-n", "base"], "reserved"),
    (["-n", "x", "--clone", "y"], "option --clone is not supported"),
])
def test_parse_create_refuses_what_it_cannot_do(conda: ModuleType, argv: list[str], message: str) -> None:
    with pytest.raises(conda.CondaError, match=message):
        conda.parse_create(argv)


@pytest.mark.parametrize("spec, requirement", [
    ("pandas=2.2", "pandas==2.2.*"), ("pandas=2.2.*", "pandas==2.2.*"), ("pandas==2.2.3", "pandas==2.2.3"),
    ("pandas>=2", "pandas>=2"), ("pandas", "pandas"),
])
def test_conda_match_specs_become_pip_requirements(conda: ModuleType, spec: str, requirement: str) -> None:
    assert conda.pip_requirement(spec) == requirement
    assert conda.package_name(spec) == "pandas"


def test_create_over_the_family_env_replaces_its_link_and_sees_its_packages(
        conda: ModuleType, family_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conda.BASE_FILE.write_text(f"{family_env}\n")
    link = conda.ROOT / "envs" / "dagster"
    link.symlink_to(family_env)
    assert conda.main(["create", "-n", "dagster", "python=3.11", "-y"]) == 0
    assert "conda activate dagster" in capsys.readouterr().out
    assert not link.is_symlink() and (family_env / "bin" / "python").exists()  # unlinked, not deleted
    tool = subprocess.run([str(link / "bin" / "family-tool")], capture_output=True, text=True, check=True)
    assert tool.stdout.split() == [str(link), "family"]  # the new interpreter, the family's package
    satisfied = subprocess.run([str(link / "bin" / "python"), "-c", "import familypkg"], capture_output=True)
    assert satisfied.returncode == 0
    assert (link / "bin" / "pip").exists()


def test_create_without_yes_keeps_an_existing_env_unless_confirmed(
        conda: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    existing = conda.ROOT / "envs" / "work"
    existing.mkdir()
    monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"readline": staticmethod(lambda: "\n")})())
    assert conda.main(["create", "-n", "work"]) == 1
    assert existing.is_dir() and "Exiting." in capsys.readouterr().err


def test_another_python_version_is_reported_and_the_env_made(
        conda: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    made: list[list[str]] = []
    monkeypatch.setattr(conda.subprocess, "run", lambda argv, **_: made.append(argv) or subprocess.CompletedProcess(argv, 0))
    assert conda.main(["create", "-n", "old", "python=3.8", "-y"]) == 0
    assert "python=3.8 cannot be installed offline" in capsys.readouterr().err
    assert made == [[sys.executable, "-m", "venv", str(conda.ROOT / "envs" / "old")]]


def test_remove_all_and_env_remove(conda: ModuleType, family_env: Path) -> None:
    (conda.ROOT / "envs" / "a").mkdir()
    (conda.ROOT / "envs" / "b").symlink_to(family_env)
    assert conda.main(["remove", "-n", "a", "--all"]) == 0
    assert conda.main(["env", "remove", "-n", "b"]) == 0
    assert list((conda.ROOT / "envs").iterdir()) == [] and family_env.is_dir()
    assert conda.main(["env", "remove", "-n", "a"]) == 1


def test_other_commands_go_to_the_desktop_shim(conda: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    monkeypatch.setattr(conda.os, "execv", lambda path, argv: seen.append([str(path), *argv[1:]]))
    conda.main(["env", "list"])
    assert seen == [[str(conda.SHIM), "env", "list"]]
