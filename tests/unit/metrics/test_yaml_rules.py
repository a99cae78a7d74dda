"""check_yaml_file on real YAML files shaped like the dbt tasks' profiles.yml and schema.yml."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_spider2v.metrics.yaml_rules import check_yaml_file

PROFILES = """
jaffle_shop:
  target: dev
  outputs:
    dev: {type: duckdb, path: /home/user/projects/jaffle_shop/jaffle_shop.duckdb}
    prod: {type: duckdb, path: prod/jaffle_shop.duckdb}
"""

SCHEMA = """
version: 2
models:
  - name: customers
    description: One row per customer
    columns:
      - name: customer_id
        description: Primary key of the table
      - name: first_order_date
        description: ""
  - name: stg_orders
    description: ""
"""

PROFILE_RULES = [
    ["match", ["jaffle_shop", "outputs", "dev", "type"], "duckdb"],
    ["contain", ["jaffle_shop", "outputs", "prod", "path"], "jaffle_shop.duckdb"],
    ["in", ["jaffle_shop", "target"], ["dev", "prod"]],
]


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "file.yml"
    path.write_text(text, encoding="utf-8")
    return path


def test_profile_rules_pass_and_fail(tmp_path: Path) -> None:
    path = _file(tmp_path, PROFILES)
    assert check_yaml_file(path, PROFILE_RULES) == 1.0
    assert check_yaml_file(path, [["match", ["jaffle_shop", "outputs", "dev", "type"], "postgres"]]) == 0.0
    assert check_yaml_file(path, [["in", ["jaffle_shop", "target"], ["prod"]]]) == 0.0
    assert check_yaml_file(path, [["match", ["jaffle_shop", "outputs", "staging", "type"], "duckdb"]]) == 0.0


def test_list_picks_and_not_null(tmp_path: Path) -> None:
    path = _file(tmp_path, SCHEMA)
    customer_id = ["models", ["name", "customers"], "columns", ["name", "customer_id"], "description"]
    assert check_yaml_file(path, [["not_null", ["models", ["name", "customers"], "description"], ""],
                                  ["contain", customer_id, "Primary key"],
                                  ["match", ["models", 1, "name"], "stg_orders"]]) == 1.0
    assert check_yaml_file(path, [["not_null", ["models", ["name", "stg_orders"], "description"], ""]]) == 0.0
    assert check_yaml_file(path, [["not_null", ["models", ["name", "orders"], "description"], ""]]) == 0.0
    assert check_yaml_file(path, [["match", ["models", 5, "name"], "x"]]) == 0.0


def test_missing_or_invalid_yaml(tmp_path: Path) -> None:
    assert check_yaml_file(None, PROFILE_RULES) == 0.0
    assert check_yaml_file(tmp_path / "absent.yml", PROFILE_RULES) == 0.0
    assert check_yaml_file(_file(tmp_path, "a: [unclosed"), PROFILE_RULES) == 0.0


def test_malformed_rule_raises(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="malformed rule"):
        check_yaml_file(_file(tmp_path, PROFILES), [["equals", ["a"], 1]])
