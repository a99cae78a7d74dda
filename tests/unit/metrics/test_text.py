"""Text and value metrics on real files in tmp_path: a pass, a fail and a missing input each."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from pytest_spider2v.metrics.text import (
    check_file_existence,
    check_include_exclude,
    compare_json_file,
    compare_sql,
    compare_text_file,
    diff_text_file,
    exact_match,
    is_expected_url_pattern_match,
    is_not_in_list,
    literal_match,
)


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_include_exclude(caplog: pytest.LogCaptureFixture) -> None:
    rules = {"include": ["succeed"], "exclude": ["failed"]}
    assert check_include_exclude("Checking dbt run succeed", rules) == 1.0
    with caplog.at_level(logging.INFO):
        assert check_include_exclude("model a succeed; model b failed", rules) == 0.0
    assert "failed" in caplog.text
    assert check_include_exclude("nothing", rules) == 0.0
    assert check_include_exclude(None, rules) == 0.0
    assert check_include_exclude(["bigquery"], {"include": ["bigquery"], "exclude": ["None"]}) == 1.0


def test_exact_match() -> None:
    assert exact_match("42", {"expected": "42"}) == 1.0
    assert exact_match("41", {"expected": "42"}) == 0.0
    assert exact_match(None, {"expected": "42"}) == 0.0


def test_literal_match() -> None:
    assert literal_match(["b", "a"], ["a", "b"], type="list", ignore_order=True) == 1.0
    assert literal_match(["b", "a"], ["a", "b"], type="list") == 0.0
    assert literal_match(["A"], ["a"], type="list", ignore_case=True) == 1.0
    assert literal_match(None, ["a"], type="list") == 0.0
    assert literal_match(3, "3") == 1.0
    assert literal_match("Ab", "aB", ignore_case=True) == 1.0
    with pytest.raises(ValueError, match="unsupported type"):
        literal_match("a", "a", type="dict")


def test_is_not_in_list() -> None:
    assert is_not_in_list(["ds_a", "ds_b"], {"exclude": "ds_c"}) == 1.0
    assert is_not_in_list(["ds_a", "ds_b"], {"exclude": "ds_b"}) == 0.0
    assert is_not_in_list(["ds_a"], {"exclude": ["ds_x", "ds_a"]}) == 0.0
    assert is_not_in_list(None, {"exclude": "ds_a"}) == 0.0


def test_is_expected_url_pattern_match() -> None:
    rules = {"expected": [r"localhost:8088/superset/dashboard/\d+", r"native_filters"]}
    url = "http://localhost:8088/superset/dashboard/12/?native_filters=abc"
    assert is_expected_url_pattern_match(url, rules) == 1.0
    assert is_expected_url_pattern_match({"url": url, "title": "x"}, rules) == 1.0
    assert is_expected_url_pattern_match("http://localhost:8088/superset/welcome/", rules) == 0.0
    assert is_expected_url_pattern_match(None, rules) == 0.0
    assert is_expected_url_pattern_match({"title": "no url"}, rules) == 0.0


def test_check_file_existence(tmp_path: Path) -> None:
    assert check_file_existence(_file(tmp_path, "out.txt", "x")) == 1.0
    assert check_file_existence(str(tmp_path / "absent.txt")) == 0.0
    assert check_file_existence(None) == 0.0


def test_compare_text_file(tmp_path: Path) -> None:
    gold = _file(tmp_path, "gold.txt", "Hello  World\n\tagain\n")
    assert compare_text_file(_file(tmp_path, "same.txt", "Hello  World\n\tagain\n"), gold) == 1.0
    spaced = _file(tmp_path, "spaced.txt", "Hello World again")
    assert compare_text_file(spaced, gold) == 0.0
    assert compare_text_file(spaced, gold, ignore_blanks=True) == 1.0
    shouting = _file(tmp_path, "shout.txt", "HELLO WORLD AGAIN")
    assert compare_text_file(shouting, gold, ignore_blanks=True) == 0.0
    assert compare_text_file(shouting, gold, ignore_blanks=True, ignore_case=True) == 1.0
    assert compare_text_file(None, gold) == 0.0
    assert compare_text_file(tmp_path / "absent.txt", gold) == 0.0


def test_compare_sql(tmp_path: Path) -> None:
    gold = _file(tmp_path, "gold.sql", "select * from orders\n")
    assert compare_sql(_file(tmp_path, "same.sql", "select * from orders\n"), gold) == 1.0
    assert compare_sql(_file(tmp_path, "other.sql", "SELECT * FROM orders\n"), gold) == 0.0
    assert compare_sql(None, gold) == 0.0


def test_diff_text_file_is_a_ratio(tmp_path: Path) -> None:
    gold = _file(tmp_path, "gold.py", "a\nb\nc\nd\n")
    assert diff_text_file(_file(tmp_path, "same.py", "a\nb\nc\nd\n"), gold) == 1.0
    partial = diff_text_file(_file(tmp_path, "half.py", "a\nb\nx\ny\n"), gold)
    assert partial == pytest.approx(0.5)
    assert diff_text_file(_file(tmp_path, "none.py", "p\nq\n"), gold) == 0.0
    assert diff_text_file(None, gold) == 0.0


def test_compare_json_file(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    gold = _file(tmp_path, "gold.json", json.dumps({"a": 1, "b": [1, {"c": 2}]}))
    assert compare_json_file(_file(tmp_path, "same.json", '{"b": [1, {"c": 2}], "a": 1}'), gold) == 1.0
    with caplog.at_level(logging.INFO):
        assert compare_json_file(_file(tmp_path, "other.json", '{"b": [1, {"c": 3}], "a": 1}'), gold) == 0.0
    assert "$.b[1].c" in caplog.text
    assert compare_json_file(_file(tmp_path, "broken.json", "{not json"), gold) == 0.0
    assert compare_json_file(None, gold) == 0.0
