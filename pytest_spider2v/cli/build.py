"""``spider2v-build [NAME ...]``: build the environment images (all, or the named recipes or
snapshots with the recipes they are built on), reusing an image whose build context is unchanged,
and write each image's build time and size to a JSON file.

With ``--push REGISTRY`` each built image is then pushed to ``REGISTRY`` (``registry.lab:5000``),
for the nodes of a cluster to pull (``--provider swarm``): the line printed per image names the
digest the push gave it, which the provider asks the registry for before it starts a service.

The building itself is :mod:`pytest_spider2v.environments.build`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import docker
from docker.errors import APIError, DockerException

from pytest_spider2v.environments.build import (
    DEFAULT_MIRROR,
    BuildError,
    build_all,
    ensure_base,
    resolve_recipes,
    write_figures,
)
from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.snapshots import image_name
from pytest_spider2v.registry import load_extensions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="spider2v-build", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="recipes or snapshot names (default: all)")
    parser.add_argument("--environments", type=Path, default=RECIPES_DIR, help="recipes folder")
    parser.add_argument("--figures", type=Path, default=Path("results/build-figures.json"),
                        help="JSON file for build time and size per image")
    parser.add_argument("--force", action="store_true", help="rebuild even when the context is unchanged")
    parser.add_argument("--no-cache", action="store_true", help="rebuild every layer (for cold build figures)")
    parser.add_argument("--mirror", default=DEFAULT_MIRROR, help="Debian mirror for debootstrap")
    parser.add_argument("--jobs", type=int, default=2, help="recipes built at once (siblings over one parent)")
    parser.add_argument("--push", metavar="REGISTRY", help="then push each image to REGISTRY (HOST:PORT)")
    args = parser.parse_args(argv)
    load_extensions()  # an extension may register a recipes folder of its own (registry.recipes_dirs)

    try:
        client = docker.from_env(timeout=3600)
        client.ping()
    except DockerException as exc:
        print(f"spider2v-build: cannot reach Docker: {exc}", file=sys.stderr)
        return 2
    figures: dict[str, Any] = {}
    try:
        recipes = resolve_recipes(args.names, args.environments)
        started = time.monotonic()
        base = ensure_base(client, args.mirror)
        base_image = client.images.get(base)
        figures[base] = {"image": base, "image_id": base_image.id, "seconds": round(time.monotonic() - started, 1),
                         "size_bytes": int(base_image.attrs["Size"])}
        figures.update(build_all(client, recipes, base, args.environments, jobs=args.jobs, force=args.force,
                                          no_cache=args.no_cache))
        figures["last_run"] = {"recipes": recipes, "jobs": args.jobs, "seconds": round(time.monotonic() - started, 1),
                               "rebuilt": [r for r in recipes if not figures[r]["reused"]]}
        for recipe in recipes if args.push else []:
            pushed = push(client, image_name(recipe), args.push)
            figures[recipe]["pushed"] = pushed
            print(f"[spider2v-build] {image_name(recipe)}: pushed as {pushed}")
    except (BuildError, APIError, subprocess.CalledProcessError) as exc:
        print(f"spider2v-build: {exc}", file=sys.stderr)
        return 1
    finally:
        if figures:
            write_figures(args.figures, figures)
    return 0


def push(client: docker.DockerClient, image: str, registry: str) -> str:
    """Push ``image`` (``spider2v/desktop:latest``) to ``registry``; its reference by digest there."""
    repository, tag = image.rsplit(":", 1)
    target = f"{registry.rstrip('/')}/{repository}"
    client.images.get(image).tag(target, tag)
    for line in client.api.push(target, tag, stream=True, decode=True):
        if "error" in line:
            raise BuildError(f"push of {image} to {registry}: {line['error']}")
    digests = [d for d in client.images.get(image).attrs.get("RepoDigests") or [] if d.startswith(f"{target}@")]
    if not digests:
        raise BuildError(f"push of {image} to {registry}: the registry gave no digest")
    return str(digests[0])


if __name__ == "__main__":
    sys.exit(main())
