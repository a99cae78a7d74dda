"""InfiAgent-DABench's questions file as a task format: collection from a checkout, its data
folder or the file, markers, errors per line, and the tasks it makes (tiny inline checkouts; the
published dev set beside the checkout for the counts)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_spider2v.agents.oracle import OracleAgent
from pytest_spider2v.formats.dabench import DATA_FOLDER, DABenchFormat, perturbed
from pytest_spider2v.metrics.closed_form import closed_form, is_equal
from pytest_spider2v.plugin.keys import TASK
from pytest_spider2v.run.agent import done_with_answer
from pytest_spider2v.tasks.loading import is_task_file, load_task_file
from pytest_spider2v.tasks.model import Task, TaskFormatError
from pytest_spider2v.validate.checks import CHECK
from tests.support.dabench import make_checkout
from tests.support.shared import require, shared

QUESTIONS = [
    {"id": 0, "question": "Calculate the mean fare paid by the passengers.", "concepts": ["Summary Statistics"],
     "constraints": "Round to two decimal places.", "format": "@mean_fare[mean_fare_value]",
     "file_name": "titanic.csv", "level": "easy"},
    {"id": 5, "question": "Correlate family size and fare.", "concepts": ["Feature Engineering", "Correlation Analysis"],
     "constraints": "Use Pearson's r.", "format": "@correlation_coefficient[r_value]",
     "file_name": "titanic.csv", "level": "hard"},
    {"id": 12, "question": "Is the fare normally distributed? How many outliers?",
     "concepts": ["Distribution Analysis", "Outlier Detection"], "constraints": "",
     "format": "@normality[yes or no], @outliers[count]", "file_name": "fares 2024.csv", "level": "medium"},
]
LABELS = [
    {"id": 0, "common_answers": [["mean_fare", "34.65"]]},
    {"id": 5, "common_answers": [["correlation_coefficient", "0.21"]]},
    {"id": 12, "common_answers": [["normality", "no"], ["outliers", "4"], ["normality", "No"]]},
]


def checkout(root: Path, questions: list[Any] = QUESTIONS, labels: list[Any] = LABELS) -> Path:
    return make_checkout(root, questions, labels)


def items(result: pytest.RunResult) -> list[str]:
    return [line.split("::", 1)[1] for line in result.outlines if "::" in line and " " not in line]


def loaded(path: Path) -> list[Task]:
    entries = load_task_file(path)
    assert all(isinstance(e, Task) for e in entries), entries
    return entries  # type: ignore[return-value]


# -- collection ---------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["checkout", "data folder", "questions file"])
def test_one_item_per_question_from_the_checkout_its_data_folder_or_the_file(
        pytester: pytest.Pytester, where: str) -> None:
    questions = checkout(pytester.path / "InfiAgent")
    target = {"checkout": pytester.path / "InfiAgent", "data folder": questions.parent, "questions file": questions}[where]
    result = pytester.runpytest(str(target), "--collect-only", "-q", "--strict-markers")
    assert items(result) == ["q0-titanic", "q5-titanic", "q12-fares_2024"]
    assert result.ret == 0


def test_markers_select_by_level_and_concept(pytester: pytest.Pytester) -> None:
    checkout(pytester.path)
    for expression, expected in [("hard and correlation_analysis", ["q5-titanic"]),
                                 ("outlier_detection or easy", ["q0-titanic", "q12-fares_2024"]),
                                 ("dabench and closed_form and cli", ["q0-titanic", "q5-titanic", "q12-fares_2024"])]:
        result = pytester.runpytest(".", "--collect-only", "-q", "--strict-markers", "-m", expression)
        assert items(result) == expected, expression


def test_k_picks_one_question_by_its_id_prefix_or_the_questions_on_a_table(pytester: pytest.Pytester) -> None:
    checkout(pytester.path, questions=[*QUESTIONS, {**QUESTIONS[0], "id": 50}],
             labels=[*LABELS, {**LABELS[0], "id": 50}])
    assert items(pytester.runpytest(".", "--collect-only", "-q", "-k", "q5-")) == ["q5-titanic"]
    assert items(pytester.runpytest(".", "--collect-only", "-q", "-k", "fares")) == ["q12-fares_2024"]


def test_an_infiagent_checkouts_own_scripts_and_tests_are_not_collected(pytester: pytest.Pytester) -> None:
    checkout(pytester.path)
    scripts = pytester.path / "pipeline" / "activities"
    scripts.mkdir(parents=True)
    (scripts / "local_test.py").write_text("import infiagent\n\ndef test_x():\n    pass\n")
    (pytester.path / DATA_FOLDER.parent / "test_eval.py").write_text("raise ImportError('not a test')\n")
    result = pytester.runpytest(".", "--collect-only", "-q")
    assert len(items(result)) == 3 and result.ret == 0


def test_a_questions_file_without_its_labels_is_not_a_task_file(tmp_path: Path) -> None:
    questions = tmp_path / "faq-questions.jsonl"
    questions.write_text('{"id": 1}\n')
    assert not is_task_file(questions)
    (tmp_path / "faq-labels.jsonl").write_text("")
    assert is_task_file(questions)


BAD_LINES = [
    ("{not json", None, None, "invalid JSON at column 2"),
    ({**QUESTIONS[0], "id": 7, "level": "trivial"}, "7", "level", "must be one of easy, medium, hard, got 'trivial'"),
    ({k: v for k, v in QUESTIONS[0].items() if k != "format"} | {"id": 8}, "8", "format", "required key is missing"),
    ({**QUESTIONS[0], "id": 9, "file_name": "gone.csv"}, "9", "file_name", "no table 'gone.csv' in"),
    ({**QUESTIONS[0], "id": 10}, "10", "id", "no labels for question 10 in da-dev-labels.jsonl"),
    ({**QUESTIONS[0], "id": 11, "concepts": "Summary Statistics"}, "11", "concepts", "must be a list of concept names"),
    (QUESTIONS[0], "0", "id", "question given twice (also on line 1)"),
]


def test_each_bad_line_is_an_error_naming_file_line_question_and_field(tmp_path: Path) -> None:
    questions = checkout(tmp_path, questions=[*QUESTIONS, *(bad for bad, *_ in BAD_LINES)])
    entries = load_task_file(questions)
    assert [e.id for e in entries if isinstance(e, Task)] == ["q0-titanic", "q5-titanic", "q12-fares_2024"]
    errors = [e for e in entries if isinstance(e, TaskFormatError)]
    assert len(errors) == len(BAD_LINES)
    for error, (_, qid, field, message) in zip(errors, BAD_LINES):
        assert error.path == questions and error.task_id == qid and error.field == field
        assert message in error.message, str(error)
    assert [e.line for e in errors] == list(range(4, 4 + len(BAD_LINES)))
    assert str(errors[1]).startswith(f"{questions}:5: task '7': field 'level': must be one of")


def test_a_bad_labels_line_is_the_error_of_its_question(tmp_path: Path) -> None:
    labels = [LABELS[0], {"id": 5, "common_answers": [["r", 0.21, "extra"]]}, "[1, 2]", LABELS[2]]
    entries = load_task_file(checkout(tmp_path, labels=labels))
    assert [e.id for e in entries if isinstance(e, Task)] == ["q0-titanic", "q12-fares_2024"]
    unattributed, of_question_5 = [e for e in entries if isinstance(e, TaskFormatError)]
    assert unattributed.path.name == "da-dev-labels.jsonl" and unattributed.line == 3
    assert (of_question_5.path.name, of_question_5.line, of_question_5.task_id, of_question_5.field) == (
        "da-dev-labels.jsonl", 2, "5", "common_answers")


def test_a_bad_line_is_an_error_of_its_own_and_the_other_questions_still_run(pytester: pytest.Pytester) -> None:
    checkout(pytester.path, questions=[QUESTIONS[0], {**QUESTIONS[1], "level": "trivial"}, QUESTIONS[2]])
    result = pytester.runpytest(".", "--collect-only", "-q")
    assert items(result) == ["q0-titanic", "q12-fares_2024", "line-2"]
    result.stdout.fnmatch_lines(["spider2v: 1 task entry cannot be used (each errors when run):",
                                 "*da-dev-questions.jsonl::line-2: *da-dev-questions.jsonl:2: task '5': field 'level': "
                                 "must be one of easy, medium, hard*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result = pytester.runpytest(".", "-k", "line", "--agent", "noop")
    result.assert_outcomes(errors=1)


# -- the tasks ----------------------------------------------------------------------------------


def test_a_question_becomes_an_ordinary_task(tmp_path: Path) -> None:
    _, question, _ = loaded(checkout(tmp_path))
    spec = question.spec
    assert (question.id, question.key, question.app, question.layout) == ("q5-titanic", "dabench/q5-titanic", "dabench", "dabench")
    assert (question.category, question.interface, question.difficulty, question.variant) == (
        "data_analysis_and_visualization", "cli", "hard", "closed_form")
    assert question.markers == ["dabench", "data_analysis_and_visualization", "cli", "closed_form", "hard",
                                "feature_engineering", "correlation_analysis"]
    assert spec.snapshot == "analysis"
    assert [(s.type, s.parameters) for s in spec.config] == [
        ("copyfile_from_host_to_guest", {"src": "da-dev-tables/titanic.csv", "dest": "/home/user/titanic.csv"})]
    assert question.host_path("da-dev-tables/titanic.csv").is_file()
    assert spec.evaluator.model_dump(exclude_none=True) == {
        "func": "closed_form", "result": {"type": "final_answer"}, "conj": "and", "postconfig": [],
        "expected": {"type": "rule", "rules": [["correlation_coefficient", "0.21"]]}}
    assert question.facets == {"question_id": 5, "concepts": ["Feature Engineering", "Correlation Analysis"],
                               "answer_names": ["correlation_coefficient"], "table": "titanic.csv"}


def test_the_instruction_is_the_question_its_constraints_and_its_format(tmp_path: Path) -> None:
    first = loaded(checkout(tmp_path))[0]
    assert first.instruction == (
        "Question: Calculate the mean fare paid by the passengers.\nRound to two decimal places.\n"
        "The data is in the table titanic.csv, in the working folder (/home/user/titanic.csv).\n"
        'Answer in the closed form the Format below asks for: every "@answer_name[answer]" it mentions, in the '
        "order mentioned, each answer in the range of values it requires.\nFormat: @mean_fare[mean_fare_value]")


def test_the_oracle_answers_from_the_labels_and_the_wrong_solution_perturbs_one(tmp_path: Path) -> None:
    question = loaded(checkout(tmp_path))[2]
    labels = question.spec.evaluator.expected.model_dump()["rules"]  # type: ignore[union-attr]
    oracle = OracleAgent()
    oracle.reset(question)
    (answer,) = oracle.act(question.instruction, None).actions  # type: ignore[arg-type]
    assert answer == done_with_answer("@normality[No]\n@outliers[4]")  # a repeated name keeps its last value
    assert closed_form(answer["answer"], labels).score == 1.0
    assert question.made_solutions["wrong_solution.py"].endswith("DONE\n@normality[No (perturbed)]\n@outliers[4]\n")


@pytest.mark.parametrize(("value", "wrong"), [("34.65", "35.65"), ("-0.5", "0.5"), ("4", "5"), ("no", "no (perturbed)"),
                                              ("", " (perturbed)"), ("1e-5", "1e-5 (perturbed)"), ("nan", "nan (perturbed)")])
def test_a_perturbed_value_is_never_judged_equal(value: str, wrong: str) -> None:
    assert perturbed(value) == wrong and not is_equal(wrong, value)


# -- the published dev set ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def published() -> list[Task]:
    questions = require(shared("infiagent-dabench")) / DATA_FOLDER / "da-dev-questions.jsonl"
    return loaded(questions)


@pytest.mark.sample
def test_the_dev_set_gives_257_questions_without_an_error(published: list[Task]) -> None:
    lines = (published[0].path.read_text(encoding="utf-8")).splitlines()
    assert len(published) == len([line for line in lines if line.strip()]) == 257
    assert len({t.id for t in published}) == 257


@pytest.mark.sample
def test_every_dev_question_is_answered_right_by_its_reference_and_wrong_by_its_wrong_solution(
        published: list[Task]) -> None:
    for task in published:
        labels = task.spec.evaluator.expected.model_dump()["rules"]  # type: ignore[union-attr]
        for name, expected in (("solution.py", 1.0), ("wrong_solution.py", 0.0)):
            answer = task.made_solutions[name].split("DONE\n", 1)[1]
            assert closed_form(answer, labels).score == expected, (task.id, name)


@pytest.mark.sample
def test_dev_set_markers_follow_level_and_concepts(published: list[Task]) -> None:
    rows = [json.loads(line) for line in published[0].path.read_text(encoding="utf-8").splitlines()]
    hard_correlation = sum(r["level"] == "hard" and "Correlation Analysis" in r["concepts"] for r in rows)
    assert sum("hard" in t.markers and "correlation_analysis" in t.markers for t in published) == hard_correlation
    assert Counter(t.difficulty for t in published) == Counter(r["level"] for r in rows)
    assert set(DABenchFormat.markers) >= {m for t in published for m in t.extra_markers}


# -- --validate ---------------------------------------------------------------------------------


def test_validate_gives_each_question_the_reference_near_miss_wrong_and_noop_checks(pytester: pytest.Pytester) -> None:
    checkout(pytester.path, questions=QUESTIONS[:1])
    found, _ = pytester.inline_genitems(".", "--validate")
    assert [item.name for item in found] == [
        "q0-titanic[validate-reference]", "q0-titanic[validate-near-miss]", "q0-titanic[validate-wrong]",
        "q0-titanic[validate-noop]"]
    reference, _, wrong, noop = found
    assert reference.stash[TASK].solution == reference.stash[TASK].made_solutions["solution.py"]
    assert wrong.stash[TASK].solution.endswith("DONE\n@mean_fare[35.65]\n")
    assert (noop.stash[CHECK].agent, noop.stash[CHECK].same_resets) == ("noop", False)


def test_a_questions_fingerprint_covers_its_line_labels_and_table_not_the_others(tmp_path: Path) -> None:
    from pytest_spider2v.validate.fingerprint import Fingerprinter

    def fingerprints(root: Path, questions: list[Any], labels: list[Any]) -> dict[str, str]:
        return {t.id: Fingerprinter().fingerprint(t) for t in loaded(make_checkout(root, questions, labels))}

    before = fingerprints(tmp_path / "a", QUESTIONS, LABELS)
    relabelled = fingerprints(tmp_path / "b", QUESTIONS, [LABELS[0], {"id": 5, "common_answers": [["r", "0.3"]]},
                                                          LABELS[2]])
    assert [before[k] == relabelled[k] for k in before] == [True, False, True]
    reworded = fingerprints(tmp_path / "c", [{**QUESTIONS[0], "constraints": "Round to 3 places."}, *QUESTIONS[1:]],
                            LABELS)
    assert [before[k] == reworded[k] for k in before] == [False, True, True]
    (tmp_path / "a" / DATA_FOLDER / "da-dev-tables" / "fares 2024.csv").write_text("Fare\n1\n")
    retabled = {t.id: Fingerprinter().fingerprint(t) for t in loaded(tmp_path / "a" / DATA_FOLDER / "da-dev-questions.jsonl")}
    assert [before[k] == retabled[k] for k in before] == [True, True, False]


def test_a_bad_labels_line_is_named_after_the_labels_file(pytester: pytest.Pytester) -> None:
    checkout(pytester.path, labels=[LABELS[0], "[1, 2]", LABELS[1], LABELS[2]])
    result = pytester.runpytest(".", "--collect-only", "-q")
    assert items(result)[-1] == "da-dev-labels-line-2"
    result.stdout.fnmatch_lines(["*da-dev-questions.jsonl::da-dev-labels-line-2: *da-dev-labels.jsonl:2*"])


def test_the_oracle_answers_in_the_order_the_format_names_the_answers(tmp_path: Path) -> None:
    question = {**QUESTIONS[0], "format": "@mean_fare_child[v], @mean_fare_adult[v] and @count[n]"}
    labels = [{"id": 0, "common_answers": [["count", "3"], ["mean_fare_adult", "35.17"], ["mean_fare_child", "31.09"]]}]
    (task,) = loaded(make_checkout(tmp_path, [question], labels))
    assert task.solution == "# %% the answer, from the labels\nDONE\n@mean_fare_child[31.09]\n@mean_fare_adult[35.17]\n@count[3]\n"
    assert task.made_solutions["wrong_solution.py"].endswith("DONE\n@mean_fare_child[32.09]\n@mean_fare_adult[35.17]\n@count[3]\n")
    assert task.facets["answer_names"] == ["mean_fare_child", "mean_fare_adult", "count"]
