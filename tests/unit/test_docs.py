"""The documentation: the site builds strictly, and the strict build fails on what would leave a
reader stranded (a broken link, a missing anchor, a page missing from the navigation); the README
stays a short entry that starts with the two commands and links only to pages that exist."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.shared import REPO

# mkdocs of the same environment as the tests (the test extra installs it)
MKDOCS = Path(sys.executable).parent / "mkdocs"


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the project at ``root`` (its ``mkdocs.yml`` and ``docs/``)."""
    return subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(site)], cwd=root,
                          capture_output=True, text=True, check=False, timeout=300)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The documentation copied into a folder of its own (links followed: ``architecture.md``
    stands for ARCHITECTURE.md), to break on purpose."""
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    return tmp_path


def test_the_documentation_builds_strictly(tmp_path: Path) -> None:
    done = build(REPO, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "running" / "options" / "index.html").exists()


@pytest.mark.parametrize(("link", "message"), [
    ("gone.md", "contains a link 'gone.md', but the target 'running/gone.md' is not found"),
    ("../validation/near-misses.md#no-such-part",
     "the doc 'validation/near-misses.md' does not contain an anchor '#no-such-part'"),
    ("/running/records.md", "contains an absolute link '/running/records.md'"),
    ("records", "contains an unrecognized relative link 'records'"),
], ids=["missing-page", "missing-anchor", "absolute", "unrecognised"])
def test_a_broken_link_fails_the_build(copy: Path, tmp_path: Path, link: str, message: str) -> None:
    options = copy / "docs" / "running" / "options.md"
    options.write_text(options.read_text() + f"\nSee [there]({link}).\n")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert message in done.stderr, done.stderr


def test_a_page_missing_from_the_nav_fails_the_build(copy: Path, tmp_path: Path) -> None:
    (copy / "docs" / "stray.md").write_text("# A page nobody can reach\n")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert 'exist in the docs directory, but are not included in the "nav" configuration:\n  - stray.md' in done.stderr


def test_a_nav_entry_without_its_page_fails_the_build(copy: Path, tmp_path: Path) -> None:
    (copy / "docs" / "figures.md").unlink()
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert "A reference to 'figures.md' is included in the 'nav' configuration, which is not found" in done.stderr


README = REPO / "README.md"


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250
    assert lines[2:6] == [
        "```bash",
        "bash scripts/benchmark.sh   # set up everything, run every task with the reference-solution agent, "
        "write results/report.html",
        "bash scripts/test.sh        # set up everything, run the test suite (unit, then end-to-end in real "
        "containers)",
        "```",
    ]


def test_the_readmes_relative_links_reach_files_of_the_checkout() -> None:
    """The README is read on the forge, outside the site: its links are checked here."""
    links = [link for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
             if "://" not in link]
    assert any(link.startswith("docs/") for link in links)
    assert [link for link in links if not (REPO / link).exists()] == []
