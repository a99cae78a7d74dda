"""Collection of task files: both layouts, node ids, markers, and errors that name file and field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_spider2v.testing.factories import constant_evaluator, task_document, write_checkout_task, write_task
from tests.support.shared import require, sample, task_files

#: The steps of the verbose instruction: a task that has them is collected as two variants.
VERBOSE = "1. a\n2. b\n3. c"


def sum_sales(**overrides: Any) -> dict[str, Any]:
    """The task most tests here collect: an easy calc task with one setup step, whose evaluator
    fails; ``overrides`` replace its keys."""
    return task_document(**{"id": "sum-sales", "instruction": "Add a total row.", "source": [], "action_number": 3,
                            "config": [{"type": "sleep", "parameters": {"seconds": 0.1}}],
                            "evaluator": constant_evaluator(expected="y"), **overrides})


def collected(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "::" in line and not line.startswith(" ")]


def test_project_task_gives_an_abstract_and_a_verbose_item(pytester: pytest.Pytester) -> None:
    write_task(pytester.path, sum_sales(), verbose=VERBOSE)
    result = pytester.runpytest("tasks", "--collect-only", "-q", "--strict-markers")
    assert collected(result) == [
        "tasks/calc/sum-sales/task.json::sum-sales[abstract]",
        "tasks/calc/sum-sales/task.json::sum-sales[verbose]",
    ]
    assert result.ret == 0


def test_markers_select_by_app_difficulty_variant_and_interface(pytester: pytest.Pytester) -> None:
    write_task(pytester.path, sum_sales(), verbose=VERBOSE)
    write_task(pytester.path, sum_sales(id="hard-one", related_apps=["terminal", "sqlite3"],
                                        tags=["data_warehousing", "cli"], action_number=16), app="sqlite")
    easy_calc = collected(pytester.runpytest("tasks", "--collect-only", "-q", "--strict-markers", "-m", "calc and easy"))
    assert easy_calc == ["tasks/calc/sum-sales/task.json::sum-sales[abstract]",
                         "tasks/calc/sum-sales/task.json::sum-sales[verbose]"]
    hard = collected(pytester.runpytest("tasks", "--collect-only", "-q", "-m", "hard and cli and sqlite3"))
    assert hard == ["tasks/sqlite/hard-one/task.json::hard-one[abstract]"]
    verbose = collected(pytester.runpytest("tasks", "--collect-only", "-q", "-m", "verbose"))
    assert verbose == ["tasks/calc/sum-sales/task.json::sum-sales[verbose]"]
    by_k = collected(pytester.runpytest("tasks", "--collect-only", "-q", "-k", "hard-one"))
    assert by_k == ["tasks/sqlite/hard-one/task.json::hard-one[abstract]"]


def test_verbose_instruction_is_built_as_in_the_paper(pytester: pytest.Pytester) -> None:
    from pytest_spider2v.tasks.loading import load_tasks

    path = write_task(pytester.path, sum_sales(), verbose="1. open\n2. type\n")
    abstract, verbose = load_tasks(path)
    assert abstract.instruction == "Add a total row."
    assert verbose.instruction == (
        "Add a total row.\nHere is a step-by-step tutorial from an expert instructing you how to complete it:\n"
        "1. open\n2. type\nYou can exactly follow the detailed plan above or proactively tackle the task "
        "based on the real-time environment interaction by yourself."
    )
    assert (abstract.difficulty, verbose.variant, abstract.key) == ("easy", "verbose", "calc/sum-sales[abstract]")


@pytest.mark.parametrize(
    ("mutate", "field", "words"),
    [
        (lambda t: t.pop("evaluator"), "evaluator", "required key is missing"),
        (lambda t: t.update(action_number="three"), "action_number", "integer"),
        (lambda t: t.update(evaluater={}), "evaluater", "unknown key"),
        (lambda t: t["evaluator"].update(func="compare_tabel"), "evaluator.func", "did you mean 'compare_table'"),
        (lambda t: t["config"].append({"type": "opne", "parameters": {"path": "/x"}}), "config[1].type",
         "unknown setup step 'opne'"),
        (lambda t: t["config"].append({"type": "open", "parameters": {"file": "/x"}}), "config[1].parameters",
         "open: missing a required argument: 'path'"),
        (lambda t: t["evaluator"].update(result={"type": "vm_fiel", "path": "/x"}), "evaluator.result.type",
         "unknown getter 'vm_fiel'"),
        (lambda t: t["evaluator"].update(func=["exact_match", "exact_match"]), "evaluator.result",
         "must be a list of 2 entries, one per metric"),
    ],
)
def test_a_bad_task_is_named_with_file_task_and_field_and_fails_the_collection(pytester, mutate, field, words) -> None:
    task = sum_sales()
    mutate(task)
    write_task(pytester.path, task, app="calc", verbose=VERBOSE)
    result = pytester.runpytest("tasks", "--collect-only", "-q")
    text = result.stdout.str()
    assert "spider2v: 1 task entry cannot be used" in text
    assert "tasks/calc/sum-sales/task.json: task 'sum-sales'" in text
    assert f"field '{field}'" in text
    assert words in text
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_broken_json_names_the_line_and_other_tasks_still_run(pytester: pytest.Pytester) -> None:
    write_task(pytester.path, sum_sales(), verbose=VERBOSE)
    bad = pytester.path / "tasks" / "calc" / "broken" / "task.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"id": "broken",\n "snapshot": }', encoding="utf-8")
    result = pytester.runpytest("tasks", "--collect-only", "-q")
    text = result.stdout.str()
    assert "tasks/calc/broken/task.json: invalid JSON at line 2 column 14: Expecting value" in text
    assert collected(result) == ["tasks/calc/broken/task.json::task-file", "tasks/calc/sum-sales/task.json::sum-sales[abstract]",
                                 "tasks/calc/sum-sales/task.json::sum-sales[verbose]"]
    # run, the bad entry is an error of its own, never a collection error that stops the session
    result = pytester.runpytest("tasks", "-k", "broken", "--agent", "noop")
    result.assert_outcomes(errors=1)
    assert "invalid JSON at line 2 column 14" in result.stdout.str()


def test_account_tasks_skip_with_the_reason_without_starting_an_environment(pytester: pytest.Pytester) -> None:
    account = sum_sales(id="cloud-one", tags=["data_transformation", "gui", "account"],
                        related_apps=["dbt_cloud", "chromium"])
    write_task(pytester.path, account, app="dbt")
    result = pytester.runpytest("tasks", "--agent", "noop", "--provider", "docker", "-rs")
    result.assert_outcomes(skipped=1)
    assert "needs cloud account settings; pass --settings-dir" in result.stdout.str()
    record = json.loads(next((pytester.path / "results").rglob("result.json")).read_text())
    assert record["status"] == "skipped"


def test_running_tasks_without_an_agent_is_one_usage_error(pytester: pytest.Pytester) -> None:
    write_task(pytester.path, sum_sales(), verbose=VERBOSE)
    result = pytester.runpytest("tasks")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "choose an agent with --agent NAME (available:" in result.stderr.str()
    unknown = pytester.runpytest("tasks", "--agent", "orcale")
    assert "unknown agent 'orcale'; did you mean 'oracle'?" in unknown.stderr.str()


@pytest.mark.sample
def test_every_task_file_of_the_sample_collects_without_errors(pytester: pytest.Pytester) -> None:
    examples = require(sample())
    files = {str(path.relative_to(examples)) for path in task_files(examples)}
    result = pytester.runpytest(str(examples), "--collect-only", "-q", "--strict-markers", "-p", "no:cacheprovider")
    items = collected(result)
    assert result.ret == 0, result.stdout.str()[-3000:]
    assert {"/".join(item.split("::")[0].split("/")[-3:]) for item in items} == files
    excel = [i for i in items if i.split("/")[-3] == "excel"]
    assert len(excel) == 62  # the published benchmark's excel tasks
    by_marker = collected(pytester.runpytest(str(examples), "--collect-only", "-q", "-p", "no:cacheprovider",
                                             "-m", "dbt_cloud and account"))
    assert len(by_marker) == 20  # the published dbt tasks that need a dbt Cloud account


def test_validate_gives_four_checks_per_task_file_not_per_variant(pytester: pytest.Pytester) -> None:
    write_task(pytester.path, sum_sales(), verbose=VERBOSE)
    result = pytester.runpytest("tasks", "--validate", "--collect-only", "-q", "-m", "calc")
    assert collected(result) == [
        "tasks/calc/sum-sales/task.json::sum-sales[validate-reference]",
        "tasks/calc/sum-sales/task.json::sum-sales[validate-near-miss]",
        "tasks/calc/sum-sales/task.json::sum-sales[validate-wrong]",
        "tasks/calc/sum-sales/task.json::sum-sales[validate-reset]",
    ]


def test_an_empty_getter_in_a_checkout_task_means_none(pytester: pytest.Pytester) -> None:
    # Four published snowflake tasks write "expected": [{...}, {}]: the second metric has no expected state.
    task = sum_sales(id="two-metrics", evaluator={
        "func": ["exact_match", "exact_match"],
        "result": [{"type": "rule", "rules": "x"}, {"type": "rule", "rules": "y"}],
        "expected": [{"type": "rule", "rules": {"expected": "x"}}, {}],
    })
    write_checkout_task(pytester.path / "checkout", task)
    result = pytester.runpytest("checkout", "--collect-only", "-q")
    assert collected(result) == ["checkout/evaluation_examples/examples/calc/two-metrics/two-metrics.json::two-metrics"]
    assert result.ret == 0


def test_python_files_in_a_checkout_task_folder_are_data_not_test_modules(pytester: pytest.Pytester) -> None:
    # Published dagster tasks ship test_file_sizes_job.py beside the task file for their scripts to run.
    path = write_checkout_task(pytester.path / "checkout", sum_sales(id="sizes"), app="dagster")
    (path.parent / "test_file_sizes_job.py").write_text("from dagster import job\n\ndef test_x():\n    pass\n")
    (path.parent / "conftest_like.json").write_text("{}")
    result = pytester.runpytest("checkout", "--collect-only", "-q")
    assert collected(result) == ["checkout/evaluation_examples/examples/dagster/sizes/sizes.json::sizes"]
    assert result.ret == 0


def test_a_project_task_folder_is_data_but_its_task_file_and_tests_outside_are_collected(
        pytester: pytest.Pytester) -> None:
    """A task ships scripts and tests for its environment (``test_*.py``, even a ``conftest.py`` in
    a folder of its data): none is the session's own. Its task file is, and so is a test module
    beside the task folders."""
    path = write_task(pytester.path, sum_sales())
    (path.parent / "test_pipeline.py").write_text("def test_x():\n    pass\n")
    (path.parent / "project").mkdir()
    (path.parent / "project" / "conftest.py").write_text("raise SystemExit('a task's conftest was loaded')\n")
    (path.parent / "project" / "test_models.py").write_text("def test_y():\n    pass\n")
    (pytester.path / "tasks" / "test_outside.py").write_text("def test_z():\n    pass\n")
    result = pytester.runpytest("tasks", "--collect-only", "-q")
    assert sorted(collected(result)) == ["tasks/calc/sum-sales/task.json::sum-sales[abstract]",
                                      "tasks/test_outside.py::test_z"]
    assert result.ret == 0


def test_validate_gives_a_checkout_task_the_reference_near_miss_and_reset_checks(pytester: pytest.Pytester) -> None:
    write_checkout_task(pytester.path / "checkout", sum_sales())
    result = pytester.runpytest("checkout", "--validate", "--collect-only", "-q")
    assert [item.split("::")[1] for item in collected(result)] == [
        "sum-sales[validate-reference]", "sum-sales[validate-near-miss]", "sum-sales[validate-reset]"]


def test_a_checkout_task_without_solution_that_cannot_run_is_skipped_for_why_it_cannot(
        pytester: pytest.Pytester) -> None:
    """The reference check of a task that needs an account says so (not "no solution written"),
    and its record says skipped, not running."""
    task = sum_sales(id="cloud-job", tags=[*sum_sales()["tags"], "account"])
    write_checkout_task(pytester.path / "checkout", task, app="dbt")
    result = pytester.runpytest("checkout", "--validate", "-k", "reference", "-rs", "-p", "no:cacheprovider",
                                "--results-dir", "res", "--run-name", "r")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*needs cloud account settings*"])
    assert "no reference solution" not in result.stdout.str()
    [record] = (pytester.path / "res").rglob("result.json")
    assert json.loads(record.read_text())["status"] == "skipped"
