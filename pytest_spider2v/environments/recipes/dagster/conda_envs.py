#!/usr/bin/python3
"""``conda create`` and ``conda remove`` for the desktop's conda shim, without conda or a network.

The desktop's ``/home/user/anaconda3/bin/conda`` is a shim over Python venvs linked by name in
``anaconda3/envs/`` (activate, env list, run); this image moves it to :data:`SHIM` and puts
this script in its place, so every other command still goes there. Tasks such as ``conda create
-n dagster python=3.11 -y`` then ``pip install dagster dagster-webserver`` expect a fresh
environment and an index to install from; offline, a bare venv would leave them nothing. So a
created environment is a venv over the family's own environment (:data:`BASE_FILE` names it,
``/opt/dagster`` here): its packages are importable through a ``.pth`` file (``pip install`` of
one of them answers "Requirement already satisfied"), its commands are copied in running the
new interpreter, and whatever is installed into the new environment comes first. Creating an
environment that exists replaces it, as ``conda create -y`` does; a linked family environment
is unlinked, never deleted. Python is this machine's: another ``python=`` version is reported
and the environment is made all the same.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path("/home/user/anaconda3")
SHIM = ROOT / "libexec" / "conda-shim"
BASE_FILE = ROOT / "etc" / "spider2v-base-env"
SHIM_NAME = "conda (Spider2-V compatibility shim)"
#: what a venv brings of its own; everything else in the base's bin/ is copied
OWN_SCRIPTS = ("python", "pip", "activate", "Activate.ps1", "deactivate")


class CondaError(Exception):
    """The command cannot be done; the message says why."""


def parse_create(args: list[str]) -> tuple[str, str | None, list[str], bool]:
    """``-n NAME [python=V] [PKG...] [-y] [-c CHANNEL] [-q]`` -> (name, python version, packages, yes)."""
    name, python, packages, yes = None, None, [], False
    while args:
        arg = args.pop(0)
        if arg in ("-n", "--name") and args:
            name = args.pop(0)
        elif arg.startswith("--name="):
            name = arg.split("=", 1)[1]
        elif arg in ("-y", "--yes"):
            yes = True
        elif arg in ("-c", "--channel") and args:
            args.pop(0)  # no channel is reachable: the family's packages are what there is
        elif arg in ("-q", "--quiet", "--override-channels", "--no-default-packages"):
            continue
        elif arg.startswith("-"):
            raise CondaError(f"'conda create' option {arg} is not supported (supported: -n NAME, -y, -c, -q)")
        elif arg.split("=", 1)[0].split("<", 1)[0].split(">", 1)[0].lower() == "python":
            python = arg[len("python"):].lstrip("=<>") or None
        else:
            packages.append(arg)
    if not name:
        raise CondaError("usage: conda create -n NAME [python=VERSION] [PACKAGE...] [-y]")
    if name == "base" or "/" in name:
        raise CondaError(f"'{name}' is a reserved or invalid environment name")
    return name, python, packages, yes


def package_name(spec: str) -> str:
    """``pandas=2.2`` / ``pandas>=2`` -> ``pandas``."""
    return re.split(r"[=<>!~ ]", spec, maxsplit=1)[0]


def pip_requirement(spec: str) -> str:
    """A conda match spec as pip writes it: ``pandas=2.2`` means any 2.2.x (``pandas==2.2.*``)."""
    match = re.fullmatch(r"([A-Za-z0-9_.-]+)=([^=<>!]+)", spec)
    return f"{match[1]}=={match[2].removesuffix('.*')}.*" if match else spec


def confirm(question: str, default: bool) -> bool:
    print(f"{question} ({'[y]/n' if default else 'y/[n]'})? ", end="", flush=True)
    answer = sys.stdin.readline().strip().lower()
    return default if not answer else answer.startswith("y")


def remove(prefix: Path) -> None:
    """Remove an environment: a link to a family environment is unlinked, never followed."""
    if prefix.is_symlink() or prefix.is_file():
        prefix.unlink()
    elif prefix.is_dir():
        shutil.rmtree(prefix)


def base_env() -> Path | None:
    """The family environment new environments are made over (None: the system Python only)."""
    if BASE_FILE.is_file():
        base = Path(BASE_FILE.read_text().strip())
        return base if (base / "bin" / "python").exists() else None
    return None


def site_packages(prefix: Path) -> Path:
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return prefix / "lib" / version / "site-packages"


def copy_scripts(base: Path, prefix: Path) -> list[str]:
    """Copy the base's console scripts into ``prefix``, each run by the new interpreter."""
    copied = []
    for script in sorted((base / "bin").iterdir()):
        target = prefix / "bin" / script.name
        if script.name.startswith(OWN_SCRIPTS) or target.exists() or not script.is_file():
            continue
        with script.open("rb") as handle:
            first = handle.readline()
        if not first.startswith(b"#!") or str(base).encode() not in first:
            continue
        body = script.read_bytes()[len(first):]
        target.write_bytes(f"#!{prefix}/bin/python\n".encode() + body)
        target.chmod(0o755)
        copied.append(script.name)
    return copied


def create(name: str, python: str | None, packages: list[str], yes: bool) -> int:
    prefix = ROOT / "envs" / name
    if prefix.exists() or prefix.is_symlink():
        print(f"WARNING: A conda environment already exists at '{prefix}'")
        if not yes and not confirm("Remove existing environment", default=False):
            raise CondaError("Exiting.")
        remove(prefix)
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    if python and not (here + ".").startswith(python.rstrip(".*") + "."):
        print(f"{SHIM_NAME}: python={python} cannot be installed offline; '{name}' gets Python {here}",
              file=sys.stderr)
    if not yes and not confirm("Proceed", default=True):
        raise CondaError("Exiting.")
    prefix.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(prefix)], check=True)
    base = base_env()
    if base is not None:
        (site_packages(prefix) / "_spider2v_base_env.pth").write_text(f"{site_packages(base)}\n")
        copy_scripts(base, prefix)
    missing = [p for p in packages if subprocess.run(
        [str(prefix / "bin" / "pip"), "show", "-q", package_name(p)], capture_output=True).returncode != 0]
    if missing and subprocess.run([str(prefix / "bin" / "pip"), "install",
                                   *map(pip_requirement, missing)]).returncode != 0:
        raise CondaError(f"PackagesNotFoundError: not available offline: {' '.join(missing)}")
    print("Preparing transaction: done\nVerifying transaction: done\nExecuting transaction: done\n#\n"
          f"# To activate this environment, use\n#\n#     $ conda activate {name}\n#\n"
          "# To deactivate an active environment, use\n#\n#     $ conda deactivate\n")
    return 0


def remove_env(args: list[str]) -> int:
    """``conda remove -n NAME --all`` and ``conda env remove -n NAME``."""
    name = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-n", "--name")), None)
    if not name or name == "base":
        raise CondaError("usage: conda remove -n NAME --all | conda env remove -n NAME")
    prefix = ROOT / "envs" / name
    if not (prefix.exists() or prefix.is_symlink()):
        raise CondaError(f"EnvironmentLocationNotFound: Not a conda environment: {prefix}")
    remove(prefix)
    print(f"Remove all packages in environment {prefix}: done")
    return 0


def main(argv: list[str]) -> int:
    try:
        if argv[:1] == ["create"]:
            return create(*parse_create(argv[1:]))
        if argv[:1] == ["remove"] and "--all" in argv or argv[:2] == ["env", "remove"]:
            return remove_env(argv)
    except CondaError as exc:
        print(f"{SHIM_NAME}: {exc}", file=sys.stderr)
        return 1
    os.execv(SHIM, [str(SHIM), *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
