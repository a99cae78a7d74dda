"""The files a solution replays: itself, then its ``based-on`` chain, stopping where the chain
names a missing file or comes back to one of its own."""

from __future__ import annotations

from pathlib import Path

from pytest_spider2v.tasks.solution_format import replayed_files


def write(folder: Path, name: str, base: str | None = None) -> Path:
    path = folder / name
    path.write_text(f"# {name}\n" + (f"# %% based-on: {base}\n" if base else "# %% a cell\nx = 1\n"))
    return path


def test_a_chain_is_followed_to_the_file_that_is_based_on_none(tmp_path: Path) -> None:
    write(tmp_path, "verbose.py")
    write(tmp_path, "twin.py", "verbose.py")
    assert [p.name for p in replayed_files(write(tmp_path, "abstract.py", "twin.py"))] == [
        "abstract.py", "twin.py", "verbose.py"]
    assert [p.name for p in replayed_files(tmp_path / "verbose.py")] == ["verbose.py"]


def test_a_missing_base_or_a_cycle_ends_the_chain(tmp_path: Path) -> None:
    assert [p.name for p in replayed_files(write(tmp_path, "orphan.py", "gone.py"))] == ["orphan.py"]
    write(tmp_path, "a.py", "b.py")
    assert [p.name for p in replayed_files(write(tmp_path, "b.py", "a.py"))] == ["b.py", "a.py"]
