"""Near misses of CSV files: a value per column, a row dropped, rows swapped where order counts."""

from __future__ import annotations

from pathlib import Path

from tests.support.near_misses import assert_all_caught, near_misses_of


def _csv(tmp_path: Path) -> str:
    path = tmp_path / "out.csv"
    path.write_text('id,name,amount\n1,Ann,2.50\n2,"Bob, Jr",3.00\n3,Cy,4.25\n', encoding="utf-8")
    return str(path)


def test_every_csv_near_miss_is_caught(tmp_path: Path) -> None:
    result = _csv(tmp_path)
    found = near_misses_of("compare_csv", result, result, workdir=tmp_path / "w")
    assert_all_caught(found, at_least=6)
    assert {t.kind for t in found.trials} == {"value changed", "row dropped", "rows swapped"}
    assert "line 3, column 'name'" in {t.where for t in found.trials}


def test_order_is_not_varied_where_the_metric_ignores_it(tmp_path: Path) -> None:
    result = _csv(tmp_path)
    found = near_misses_of("compare_csv", result, result, {"ignore_order": True}, workdir=tmp_path / "w")
    assert_all_caught(found)
    assert "rows swapped" not in {t.kind for t in found.trials}


def test_a_quoted_field_keeps_its_quoting_elsewhere(tmp_path: Path) -> None:
    result = _csv(tmp_path)
    found = near_misses_of("compare_csv", result, result, workdir=tmp_path / "w")
    variants = sorted((tmp_path / "w").rglob("out.csv"))
    changed_lines = [set(v.read_text().splitlines()) ^ set(Path(result).read_text().splitlines()) for v in variants]
    assert all(len(diff) <= 2 for diff in changed_lines)  # one line out, one in (or one dropped)
    assert len(found.caught) == len(found.trials)
