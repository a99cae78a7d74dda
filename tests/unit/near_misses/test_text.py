"""Near misses of strings and text files: each one must be caught by the strict metric, and the
lax use of a metric must show (a URL check that pins only the view, not the DAG)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_spider2v.near_misses.values import changed, changed_text
from tests.support.near_misses import assert_all_caught, near_misses_of


def test_changed_values_differ_in_kind_not_type() -> None:
    assert changed_text("total 2.50 EUR") == "total 3.50 EUR"
    assert changed_text("done") == "donq" and changed_text("") == "x"
    assert changed(7) == 8 and changed(True) is False and changed(None) == "x"
    assert changed({"a": 1, "b": "x"}) == {"a": 1, "b": "q"}


def test_include_exclude_on_script_output(tmp_path: Path) -> None:
    """The rules as the original gives them: the expected value, from a ``rule`` getter."""
    rules = {"include": ["rows: 42", "PASS"], "exclude": ["ERROR"]}
    found = near_misses_of("check_include_exclude", "check 1\nrows: 42\nPASS\n", rules, workdir=tmp_path)
    assert_all_caught(found, at_least=3)
    assert {t.kind for t in found.trials} == {"token changed", "forbidden text added"}


def test_a_url_check_that_pins_only_the_view_is_lax(tmp_path: Path) -> None:
    """The Airflow pattern of the errata list: includes ``grid`` and ``tab=graph`` only."""
    url = "http://localhost:8080/dags/sales_etl/grid?tab=graph"
    found = near_misses_of("check_include_exclude", url, options={"rules": {"include": ["grid", "tab=graph"]}},
                           workdir=tmp_path)
    assert [t.where for t in found.lax] == ["path segment 'dags'", "path segment 'sales_etl'"]


def test_a_url_check_that_pins_the_dag_is_not(tmp_path: Path) -> None:
    url = "http://localhost:8080/dags/sales_etl/grid?tab=graph"
    rules = {"include": ["/dags/sales_etl/grid", "tab=graph"]}
    assert_all_caught(near_misses_of("check_include_exclude", url, options={"rules": rules}, workdir=tmp_path), 4)


def test_list_results_and_exact_values(tmp_path: Path) -> None:
    found = near_misses_of("check_include_exclude", ["a", "b"], options={"rules": {"include": ["a"], "exclude": ["z"]}},
                           workdir=tmp_path / "list")
    assert_all_caught(found, at_least=2)
    assert_all_caught(near_misses_of("exact_match", "v1", options={"rules": {"expected": "v1"}}, workdir=tmp_path / "x"))
    assert_all_caught(near_misses_of("literal_match", ["a", "b"], ["a", "b"], {"type": "list"}, workdir=tmp_path / "l"), 3)


def test_closed_form_sub_answers(tmp_path: Path) -> None:
    labels = [["mean", "2.50"], ["count", "7"]]
    found = near_misses_of("closed_form", "@mean[2.50]\n@count[7]", labels, workdir=tmp_path)
    assert_all_caught(found, at_least=4)


def test_text_sql_json_and_yaml_files(tmp_path: Path) -> None:
    text = tmp_path / "out.txt"
    text.write_text("alpha\nbeta\ngamma 3\n", encoding="utf-8")
    assert_all_caught(near_misses_of("compare_text_file", str(text), str(text), workdir=tmp_path / "t"), 3)
    sql = tmp_path / "q.sql"
    sql.write_text("SELECT name FROM users WHERE age > 30;\n", encoding="utf-8")
    assert_all_caught(near_misses_of("compare_sql", str(sql), str(sql), workdir=tmp_path / "s"))
    document = tmp_path / "d.json"
    document.write_text(json.dumps({"name": "x", "items": [1, 2]}), encoding="utf-8")
    assert_all_caught(near_misses_of("compare_json_file", str(document), str(document), workdir=tmp_path / "j"), 2)
    profiles = tmp_path / "profiles.yml"
    profiles.write_text("shop:\n  target: dev\n  outputs:\n    dev: {type: duckdb, threads: 4}\n", encoding="utf-8")
    rules = [["match", ["shop", "target"], "dev"], ["not_null", ["shop", "outputs", "dev", "type"], None],
             ["match", ["shop", "outputs", "dev", "threads"], 4]]
    assert_all_caught(near_misses_of("check_yaml_file", str(profiles), options={"rules": rules},
                                     workdir=tmp_path / "y"), 3)


def test_a_metric_without_a_maker_is_not_covered(tmp_path: Path) -> None:
    there = tmp_path / "there.txt"
    there.write_text("x", encoding="utf-8")
    found = near_misses_of("check_file_existence", str(there), workdir=tmp_path / "w", takes_expected=False)
    assert found.trials == [] and [u.describe() for u in found.uncovered] == [
        "check_file_existence: no near-miss maker for this metric"]


def test_json_and_yaml_makers_vary_only_what_parses(tmp_path: Path) -> None:
    """A file that does not parse gives nothing to vary; a document that parses to null (JSON's
    ``null``) is still a document, with a value to change."""
    from pytest_spider2v.near_misses.text import json_file, yaml_file

    broken_json, null_json = tmp_path / "broken.json", tmp_path / "null.json"
    broken_json.write_text("{not json", encoding="utf-8")
    null_json.write_text("null", encoding="utf-8")
    broken_yaml = tmp_path / "broken.yml"
    broken_yaml.write_text("a: [unclosed\n", encoding="utf-8")
    rules = {"rules": [["match", ["a"], 1]]}
    assert list(json_file(str(broken_json), None, {}, tmp_path / "j1")) == []
    assert [(m.kind, m.where) for m in json_file(str(null_json), None, {}, tmp_path / "j2")] == [("value changed", "$")]
    assert list(yaml_file(str(broken_yaml), None, rules, tmp_path / "y1")) == []
    assert list(yaml_file(str(tmp_path / "missing.yml"), None, rules, tmp_path / "y2")) == []
