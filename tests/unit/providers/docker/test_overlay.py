"""A container's changes read from its overlay layers (``providers/docker/overlay.py``), on folders
made here as overlayfs makes them: a whiteout for a deleted file, an opaque folder for a replaced
one (both need root, as the Docker host's walk has)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pytest_spider2v.providers.docker.overlay import OPAQUE, layer_changes


def layers(tmp_path: Path) -> tuple[Path, list[Path]]:
    upper, lower = tmp_path / "upper", tmp_path / "lower"
    for path in ("usr/bin/bash", "usr/bin/psql", "etc/profile", "opt/dbt/lib/x.py", "opt/dbt/lib/y.py"):
        (lower / path).parent.mkdir(parents=True, exist_ok=True)
        (lower / path).write_text("image")
    (upper / "usr/bin").mkdir(parents=True)
    (upper / "usr/bin/bash").write_text("forged")
    (upper / "home/user").mkdir(parents=True)
    (upper / "home/user/out.csv").write_text("new")
    return upper, [lower]


def kinds(upper: Path, lowers: list[Path]) -> list[tuple[str, str]]:
    return [(change.path, change.kind) for change in layer_changes(upper, lowers)]


def test_changed_added_and_their_folders_with_each_files_state(tmp_path: Path) -> None:
    upper, lowers = layers(tmp_path)
    assert kinds(upper, lowers) == [("/home", "added"), ("/home/user", "added"), ("/home/user/out.csv", "added"),
                                    ("/usr", "changed"), ("/usr/bin", "changed"), ("/usr/bin/bash", "changed")]
    bash = next(change for change in layer_changes(upper, lowers) if change.path == "/usr/bin/bash")
    info = (upper / "usr/bin/bash").stat()
    assert bash.state is not None and (bash.state.size, bash.state.ctime_ns, bash.state.inode) == (
        6, info.st_ctime_ns, info.st_ino)


def test_a_whiteout_is_a_deleted_file(tmp_path: Path) -> None:
    upper, lowers = layers(tmp_path)
    try:
        os.mknod(upper / "usr/bin/psql", stat.S_IFCHR | 0o000, os.makedev(0, 0))
    except PermissionError:
        pytest.skip("making a whiteout needs root (CAP_MKNOD), as reading the Docker host's layers does")
    assert ("/usr/bin/psql", "deleted") in kinds(upper, lowers)
    assert next(c for c in layer_changes(upper, lowers) if c.path == "/usr/bin/psql").state is None


def test_an_opaque_folder_replaced_the_images_and_everything_in_it(tmp_path: Path) -> None:
    upper, lowers = layers(tmp_path)
    (upper / "opt/dbt/lib").mkdir(parents=True)
    (upper / "opt/dbt/lib/x.py").write_text("mine")
    try:
        os.setxattr(upper / "opt/dbt/lib", OPAQUE, b"y")
    except OSError:
        pytest.skip("a trusted.* attribute needs root (CAP_SYS_ADMIN), as reading the Docker host's layers does")
    found = kinds(upper, lowers)
    assert ("/opt/dbt/lib", "deleted") in found and ("/opt/dbt/lib", "added") in found
    assert ("/opt/dbt/lib/x.py", "added") in found  # the image's x.py went with its folder
