"""Nautilus (GNOME Files) in the clouds image (issue 38): BigQuery tasks open a folder for the
user with ``nautilus PATH``, from a ``launch`` step or from a script run in the background. On a
real ``bigquery`` environment, a window of that folder must appear. On an image without Nautilus
the first check fails (no such program)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

import pytest_spider2v.steps.builtin  # noqa: F401  (registers the launch step)
from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.testing.factories import make_task
from pytest_spider2v.testing.waiting import wait_until
from tests.support.environments import environment_of

pytestmark = pytest.mark.e2e

WINDOW_TIMEOUT = 60.0
APP = "org.gnome.Nautilus"  #: its window class (WM_CLASS) and its application's name in the accessibility tree


@pytest.fixture(scope="module")
def bigquery_env(conformance_provider: Provider) -> Iterator[Environment]:
    """One environment of the ``bigquery`` snapshot for the module (skipped when not built)."""
    with environment_of(conformance_provider, "bigquery") as environment:
        yield environment


def nautilus_windows(env: Environment) -> list[str]:
    """Titles of Nautilus' windows, from ``wmctrl -lx`` (id, desktop, class, host, title)."""
    lines = env.execute(["wmctrl", "-lx"]).stdout.splitlines()
    return [fields[4] for line in lines if len(fields := re.split(r"\s+", line, maxsplit=4)) == 5
            and fields[2] == f"{APP}.{APP}"]


def wait_for_nautilus_window(env: Environment, title: str) -> None:
    wait_until(lambda: nautilus_windows(env), lambda titles: title in titles, timeout=WINDOW_TIMEOUT,
               what=f"a Nautilus window {title!r} in wmctrl -lx")


def test_a_launch_step_opens_the_home_folder_in_a_nautilus_window(bigquery_env: Environment, tmp_path: Path) -> None:
    env = bigquery_env
    which = env.execute(["which", "nautilus"])
    assert which.returncode == 0, "no nautilus on the PATH of the bigquery environment"
    ctx = TaskContext(env, make_task(root=tmp_path), tmp_path / "cache")
    setup_steps.get("launch")(ctx, command=["nautilus", "/home/user"])  # as a task's config runs it
    wait_for_nautilus_window(env, "Home")  # Nautilus names the home folder's window so
    # The original harness's walk sees the window (the fast walk does not yet: see below).
    tree = ElementTree.fromstring(env.accessibility_tree(walk="naive"))
    app = next((a for a in tree.findall("application") if a.get("name") == APP), None)
    assert app is not None, [a.get("name") for a in tree.findall("application")]
    assert [frame.get("name") for frame in app.findall("frame")] == ["Home"]
    # Its state goes where the user's would: the home is the user's (no root-owned ~/.local
    # left by the image's build), so Nautilus could write it.
    assert env.execute(["test", "-w", "/home/user/.local/share/nautilus"]).returncode == 0


def test_a_script_opens_a_data_folder_in_the_background(bigquery_env: Environment) -> None:
    """As a task's init script does: ``nautilus /home/user/data &``, the script going on."""
    env = bigquery_env
    env.execute(["mkdir", "-p", "/home/user/data"])
    done = env.execute("nautilus /home/user/data >/dev/null 2>&1 & echo started", shell=True, timeout=30)
    assert (done.returncode, done.stdout.strip()) == (0, "started")
    wait_for_nautilus_window(env, "data")


@pytest.mark.xfail(strict=True, reason=(
    "the guest's fast accessibility walk trusts Cache.GetItems' child count, and GTK 4.8 (Nautilus 43) "
    "lists its application root there with 0 children though Accessible.ChildCount and GetChildren "
    "give its windows: the fast walk shows Nautilus' application with nothing under it"))
def test_the_fast_accessibility_walk_shows_nautilus_windows(bigquery_env: Environment) -> None:
    env = bigquery_env
    if not nautilus_windows(env):
        env.launch(["nautilus", "/home/user"])
    wait_for_nautilus_window(env, "Home")

    def frames() -> list[str]:
        tree = ElementTree.fromstring(env.accessibility_tree())
        return [f.get("name") or "" for a in tree.findall("application") if a.get("name") == APP
                for f in a.findall("frame")]

    wait_until(frames, lambda names: "Home" in names, timeout=20, what="Nautilus' window 'Home' in the fast walk")
