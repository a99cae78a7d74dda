"""``provides.yaml`` against the built images: each family declares exactly the programs, conda
environments and Python packages its image has, so the static needs analysis
(:mod:`pytest_spider2v.tasks.needs.analysis`) cannot drift from the images whose tasks it skips or runs.

A family whose image is not built is skipped. On a mismatch the message lists what to add to
or remove from the family's entry.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass

import pytest

from pytest_spider2v.environments.snapshots import image_name, load_manifest, normalize_distribution

pytestmark = pytest.mark.e2e

#: Where a task's scripts find programs: the PATH, the conda shim, and every conda environment
#: (a script may `conda activate` it first).
PROGRAM_DIRS = '$(echo "$PATH" | tr : " ") /home/user/anaconda3/bin /home/user/anaconda3/envs/*/bin'
SEPARATOR = "--- spider2v ---"


@dataclass(frozen=True)
class ImageFacts:
    programs: frozenset[str]
    conda_envs: frozenset[str]
    packages: frozenset[str]


def image_facts(image: str, interpreters: tuple[str, ...]) -> ImageFacts:
    """One container run: executables on the program paths, conda environments, and the
    distributions each interpreter has installed."""
    pip = "; ".join(f"{shlex.quote(p)} -m pip list --format=freeze 2>/dev/null" for p in interpreters)
    script = (
        f"for d in {PROGRAM_DIRS}; do [ -d \"$d\" ] && find -L \"$d\" -maxdepth 1 -type f -perm -u=x "
        f"-printf '%f\\n' 2>/dev/null; done; echo '{SEPARATOR}'; ls /home/user/anaconda3/envs 2>/dev/null; "
        f"echo '{SEPARATOR}'; {pip or 'true'}"
    )
    out = subprocess.run(["docker", "run", "--rm", image, "sh", "-c", script], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    programs, envs, packages = (part.split() for part in out.split(SEPARATOR))
    names = {normalize_distribution(m.group(0)) for line in packages if (m := re.match(r"[A-Za-z0-9._-]+", line))}
    return ImageFacts(frozenset(programs), frozenset(envs), frozenset(names))


def built(image: str) -> bool:
    return subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode == 0


def difference(what: str, declared: frozenset[str], actual: frozenset[str]) -> list[str]:
    lines = []
    if missing := sorted(actual - declared):
        lines.append(f"{what} in the image, not declared: {missing}")
    if extra := sorted(declared - actual):
        lines.append(f"{what} declared, not in the image: {extra}")
    return lines


@pytest.mark.parametrize("family", sorted(load_manifest().families))
def test_manifest_matches_the_image(family: str) -> None:
    if shutil.which("docker") is None:
        pytest.skip("no docker command")
    image = image_name(family)
    if not built(image):
        pytest.skip(f"{image} is not built")
    declared = load_manifest().families[family]
    facts = image_facts(image, declared.python)
    problems = [
        *difference("programs", declared.programs, facts.programs),
        *difference("conda environments", declared.conda_envs, facts.conda_envs),
        *difference("Python packages", declared.packages, facts.packages),
    ]
    unprovided = sorted(c for c in declared.commands if c.split()[0] not in facts.programs)
    if unprovided:
        problems.append(f"commands of programs the image lacks: {unprovided}")
    assert not problems, f"provides.yaml, family {family!r} vs {image}:\n" + "\n".join(problems)
