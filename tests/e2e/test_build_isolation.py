"""Sibling image builds share nothing but their parent: servers that build steps start cannot race.

The cold-build failure this guards against: two family recipes each started PostgreSQL on TCP
5432 while building, on the host's network, and whichever started second failed. Here two
minimal recipes hold the same TCP port for several seconds in a build step, built side by side
with the real build code; both must succeed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

from pytest_spider2v.environments.build import build_all, ensure_base
from pytest_spider2v.environments.snapshots import image_name

pytestmark = pytest.mark.e2e

#: Perl is in every Debian base (perl-base is essential), so the recipes need nothing installed.
HOLD_PORT = (
    "RUN perl -MIO::Socket::INET -e '"
    'my $s = IO::Socket::INET->new(LocalAddr => "0.0.0.0", LocalPort => 5432, Listen => 5, ReuseAddr => 0)'
    ' or die "cannot listen on 5432: $@\\n"; sleep 10; print "held port 5432\\n"'
    "'\n"
)


@pytest.fixture
def twin_recipes(tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    names = [f"race-{os.getpid()}-{twin}" for twin in ("a", "b")]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "Dockerfile").write_text(f"ARG BASE\nFROM ${{BASE}}\n{HOLD_PORT}")
    yield tmp_path, names
    client = docker.from_env()
    for name in names:
        try:
            client.images.remove(image_name(name), force=True)
        except docker.errors.ImageNotFound:
            pass


def test_sibling_builds_whose_steps_bind_the_same_port_both_succeed(twin_recipes: tuple[Path, list[str]]) -> None:
    environments, names = twin_recipes
    client = docker.from_env(timeout=600)
    figures = build_all(client, names, ensure_base(client), environments, jobs=2, force=True, no_cache=True)
    assert sorted(figures) == sorted(names)
    for name in names:
        assert client.images.get(image_name(name)).labels["pytest-spider2v.recipe"] == name
