"""Building the environment images (the command is ``spider2v-build``, :mod:`pytest_spider2v.cli.build`).

Each recipe folder under ``recipes/`` (a Dockerfile with ``ARG BASE`` /
``FROM ${BASE}``) becomes image ``spider2v/<recipe>:latest``. A recipe whose ``recipe.yaml``
names a ``parent`` is built on the parent's image (application families over the desktop), and
the parent is built first when needed. No container registry is assumed: the root base is
``debian:bookworm`` when Docker has or can pull it, otherwise a Debian root file system made
with ``debootstrap`` and imported as ``spider2v/base:bookworm``.

A recipe's build context (recipe folder, guest server, CA bundle) is hashed and the hash is put
on the image as a label, so a rebuild of an unchanged recipe is a fast no-op and any change to
the recipe is noticed. Build time and image size are written to a JSON file for reports.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import docker
from docker.errors import APIError, DockerException, ImageNotFound
from docker.models.images import Image

from pytest_spider2v.environments.locations import GUEST_SERVER_DIR, RECIPES_DIR
from pytest_spider2v.environments.snapshots import image_name, load_snapshots, recipe_dir, recipe_parent
from pytest_spider2v.signals.threads import leave_signals_to_main_thread

BASE_IMAGE = "spider2v/base:bookworm"
UPSTREAM_BASE = "debian:bookworm"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
HASH_LABEL = "pytest-spider2v.context-hash"
CA_ENV_VARS = ("PIP_CERT", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")
DEFAULT_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
IGNORED_NAMES = {"__pycache__", ".pytest_cache"}


class BuildError(RuntimeError):
    """A build step failed; the message says what to do about it."""


def _log(message: str) -> None:
    print(f"[spider2v-build] {message}", flush=True)


# -- base image ---------------------------------------------------------------------------------
def _image_or_none(client: docker.DockerClient, name: str) -> Image | None:
    try:
        return client.images.get(name)
    except ImageNotFound:
        return None


def _try_pull(name: str, timeout: int) -> bool:
    """Pull with a short timeout: offline machines answer fast, slow ones are not waited on."""
    repo, tag = name.split(":")
    try:
        docker.from_env(timeout=timeout).api.pull(repo, tag=tag)
        return True
    except (DockerException, OSError) as exc:
        _log(f"cannot pull {name} ({str(exc).splitlines()[0][:160]}); using debootstrap")
        return False


def _debootstrap_base(client: docker.DockerClient, mirror: str) -> None:
    """Make a minimal bookworm root file system and import it as :data:`BASE_IMAGE`."""
    if shutil.which("debootstrap") is None:
        raise BuildError(
            "no Debian base image is available and debootstrap is not installed; "
            "install it (apt-get install -y debootstrap) or load debian:bookworm into Docker"
        )
    if os.geteuid() != 0:
        raise BuildError("debootstrap needs root to create the base image; run the build as root")
    with tempfile.TemporaryDirectory(prefix="spider2v-base-") as tmp:
        root = Path(tmp) / "rootfs"
        _log(f"debootstrap --variant=minbase bookworm {root} {mirror}")
        subprocess.run(
            ["debootstrap", "--variant=minbase", "bookworm", str(root), mirror],
            check=True, stdout=subprocess.DEVNULL,
        )
        tarball = Path(tmp) / "rootfs.tar"
        subprocess.run(["tar", "-C", str(root), "-cf", str(tarball), "."], check=True)
        _log(f"importing {tarball.stat().st_size / 1e6:.0f} MB as {BASE_IMAGE}")
        repo, tag = BASE_IMAGE.split(":")
        client.api.import_image_from_file(
            str(tarball), repository=repo, tag=tag,
            changes=['LABEL pytest-spider2v="1"', 'CMD ["/bin/bash"]'],
        )


def ensure_base(client: docker.DockerClient, mirror: str = DEFAULT_MIRROR, pull_timeout: int = 20) -> str:
    """Name of a Debian bookworm image to build on, making one if none exists."""
    for name in (UPSTREAM_BASE, BASE_IMAGE):
        if _image_or_none(client, name) is not None:
            return name
    if _try_pull(UPSTREAM_BASE, pull_timeout):
        return UPSTREAM_BASE
    _debootstrap_base(client, mirror)
    return BASE_IMAGE


# -- build context ------------------------------------------------------------------------------
def ca_bundle() -> Path:
    """The CA bundle pip inside the build must trust (this machine's, or the one named by env)."""
    for var in CA_ENV_VARS:
        value = os.environ.get(var)
        if value and Path(value).is_file():
            return Path(value)
    if DEFAULT_CA_BUNDLE.is_file():
        return DEFAULT_CA_BUNDLE
    raise BuildError(f"no CA bundle found: set one of {', '.join(CA_ENV_VARS)} to a PEM file")


def _copy_tree(src: Path, dest: Path) -> None:
    shutil.copytree(src, dest, dirs_exist_ok=True, ignore=lambda _d, names: [n for n in names if n in IGNORED_NAMES or n.endswith(".pyc")])


def assemble_context(recipe_dir: Path, dest: Path) -> None:
    """Recipe files plus what every recipe may COPY: ``guest/`` and ``ca-bundle.crt``."""
    _copy_tree(recipe_dir, dest)
    _copy_tree(GUEST_SERVER_DIR, dest / "guest")
    shutil.copyfile(ca_bundle(), dest / "ca-bundle.crt")


def context_hash(context: Path, base_id: str) -> str:
    """Content hash of a build context (paths, exec bits, bytes) and of the base image."""
    digest = hashlib.sha256(base_id.encode())
    for path in sorted(p for p in context.rglob("*") if p.is_file()):
        rel = path.relative_to(context).as_posix()
        digest.update(f"\0{rel}\0{os.access(path, os.X_OK)}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


# -- recipe images ------------------------------------------------------------------------------
def _stream_build(client: docker.DockerClient, context: Path, tag: str, base: str, labels: dict[str, str],
                  nocache: bool) -> None:
    for chunk in client.api.build(
        path=str(context), tag=tag, buildargs={"BASE": base}, labels=labels,
        rm=True, forcerm=True, decode=True, nocache=nocache,
    ):
        if "error" in chunk:
            raise BuildError(f"building {tag} failed: {chunk['error'].strip()}")
        for line in chunk.get("stream", "").rstrip().splitlines():
            print(f"[{tag}] {line}", flush=True)  # prefixed: sibling recipes build concurrently


def _drop_replaced(client: docker.DockerClient, image_id: str) -> None:
    """Remove the image a rebuild replaced, unless containers still run it (then Docker keeps it)."""
    try:
        client.images.remove(image_id)
    except APIError:
        pass


def build_recipe(client: docker.DockerClient, recipe: str, base: str, environments_dir: Path,
                 force: bool = False, nocache: bool = False) -> dict[str, Any]:
    """Build (or reuse) one recipe's image; returns its build figures."""
    folder = recipe_dir(recipe, environments_dir)
    if not (folder / "Dockerfile").is_file():
        raise BuildError(f"no recipe {recipe!r}: {folder}/Dockerfile does not exist")
    tag = image_name(recipe)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"spider2v-{recipe}-") as tmp:
        context = Path(tmp)
        assemble_context(folder, context)
        digest = context_hash(context, str(client.images.get(base).id))
        existing = _image_or_none(client, tag)
        reused = not (force or nocache) and existing is not None and existing.labels.get(HASH_LABEL) == digest
        if reused:
            _log(f"{tag} is up to date ({digest[:12]})")
        else:
            _log(f"building {tag} from {folder} on {base}")
            labels = {"pytest-spider2v": "1", "pytest-spider2v.recipe": recipe, HASH_LABEL: digest}
            _stream_build(client, context, tag, base, labels, nocache)
            if existing is not None and existing.id != client.images.get(tag).id:
                _drop_replaced(client, str(existing.id))
    image = client.images.get(tag)
    return {
        "image": tag,
        "base": base,
        "image_id": image.id,
        "context_hash": digest,
        "reused": reused,
        "seconds": round(time.monotonic() - started, 1),
        "size_bytes": int(image.attrs["Size"]),
    }


def resolve_recipes(names: list[str], environments_dir: Path) -> list[str]:
    """Recipes to build, parents before children, from arguments that may be recipe or snapshot
    names; none means every recipe a snapshot uses."""
    snapshots = load_snapshots(environments_dir)
    if not names:
        names = sorted({s.recipe for s in snapshots.values()})
    recipes: list[str] = []
    for name in names:
        lineage = [snapshots[name].recipe if name in snapshots else name]
        while (parent := recipe_parent(lineage[-1], environments_dir)) is not None:
            if parent in lineage:
                raise BuildError(f"recipe {lineage[0]!r}: parent cycle {' -> '.join([*lineage, parent])}")
            lineage.append(parent)
        recipes.extend(r for r in reversed(lineage) if r not in recipes)
    return recipes


def write_figures(path: Path, figures: dict[str, Any]) -> None:
    """Merge into the figures file so that building one recipe keeps the others' figures."""
    data = json.loads(path.read_text()) if path.is_file() else {}
    data.update(figures)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def build_all(client: docker.DockerClient, recipes: list[str], base: str, environments_dir: Path = RECIPES_DIR, *,
              jobs: int = 2, force: bool = False, no_cache: bool = False) -> dict[str, Any]:
    """Build recipes (parents listed first) with up to ``jobs`` at once: each waits for its
    parent only, so application families on one desktop build side by side. Submission in list
    order means a parent is always started before any child occupies a worker."""
    built: dict[str, Future] = {}

    def one(recipe: str) -> dict[str, Any]:
        parent = recipe_parent(recipe, environments_dir)
        if parent in built:
            built[parent].result()  # raises when the parent failed
        fig = build_recipe(client, recipe, image_name(parent) if parent else base, environments_dir, force, no_cache)
        _log(f"{fig['image']}: {fig['seconds']} s, {fig['size_bytes'] / 1e9:.2f} GB" + (" (reused)" if fig["reused"] else ""))
        return fig

    with ThreadPoolExecutor(max_workers=max(1, jobs), initializer=leave_signals_to_main_thread) as pool:
        for recipe in recipes:
            built[recipe] = pool.submit(one, recipe)
        return {recipe: future.result() for recipe, future in built.items()}
