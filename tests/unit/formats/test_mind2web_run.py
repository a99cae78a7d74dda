"""Mind2Web through the whole pipeline: collection with markers, the items, the answerers, the
records, the summary and the HTML report, in pytest subprocesses; the model agents through the
loopback model server with the real ``openai`` and ``anthropic`` SDKs. No environment is involved:
the pages are snapshots, so these runs are the end-to-end ones."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.llm_server import LLMServer, Reply
from tests.support.mind2web import card_rows, original_row, write_parquet

SUBPROCESS = ("-p", "no:cacheprovider")


@pytest.fixture
def card(pytester: pytest.Pytester) -> Path:
    """A downloaded folder as the hub lays it out: three tasks over two splits."""
    return write_parquet(pytester.path / "mm-mind2web" / "data" / "test-00000-of-00001.parquet", card_rows())


def records(root: Path, run: str) -> dict[str, dict[str, Any]]:
    return {p.parent.name: json.loads(p.read_text()) for p in (root / "results" / run).rglob("result.json")}


def summary_of(root: Path, run: str) -> dict[str, Any]:
    return json.loads((root / "results" / run / "summary.json").read_text())


def test_the_oracle_scores_every_valid_step_1(pytester: pytest.Pytester, card: Path) -> None:
    result = pytester.runpytest_subprocess("mm-mind2web", "--agent", "oracle", "-n", "2", *SUBPROCESS,
                                           "--html", "report.html", "--junitxml", "junit.xml")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*Multimodal-Mind2Web (the card's figures): 3 tasks, 5 valid steps",
                                 "*step success      1.0000", "*task success      1.0000", "*operation F1      1.0000",
                                 "*element accuracy  1.0000", "by split*", "test_domain*2*3*1.0000*",
                                 "by website*", "finance.google*1*2*"])
    assert summary_of(pytester.path, "oracle")["mind2web"]["by_split"]["test_website"]["steps"] == 2
    dogs = records(pytester.path, "oracle")["t-dogs"]
    assert [step["action"] and step["action"]["chosen"] for step in dogs["steps"]] == [2, None, 0]
    assert (pytester.path / "results" / "oracle" / "mind2web" / "t-dogs" / "step_002.png").read_bytes().startswith(b"\x89PNG")
    report = (pytester.path / "report.html").read_text()
    assert "Multimodal-Mind2Web (the card&#x27;s figures)" in report or "Multimodal-Mind2Web (the card's figures)" in report
    assert "candidates (\\u2714 target, \\u279c chosen)" in report and "invalid step: not scored" in report
    assert "&lt;ol type=A&gt;" in report  # the list's own letters are the choices' names: A for the first
    assert 'name="score" value="1.00"' in (pytester.path / "junit.xml").read_text()


def test_the_do_nothing_agent_scores_0_and_none_errors(pytester: pytest.Pytester, card: Path) -> None:
    result = pytester.runpytest_subprocess("mm-mind2web", "--agent", "noop", *SUBPROCESS)
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*score 0: task success 0: 0 of 2 valid steps right (element 0/2, operation F1 0.000); "
                                 "step 0: no answer*", "*step success      0.0000", "*element accuracy  0.0000"])
    assert {r["charged_to"]["party"] for r in records(pytester.path, "noop").values()} == {"agent"}


def test_markers_and_names_select_tasks(pytester: pytest.Pytester, card: Path) -> None:
    result = pytester.runpytest_subprocess("mm-mind2web", "--collect-only", "-q", "-m", "test_domain and not steps_1",
                                           *SUBPROCESS)
    result.stdout.fnmatch_lines(["*test-00000-of-00001.parquet::t-dogs", "1/3 tests collected (2 deselected)*"])
    result = pytester.runpytest_subprocess("mm-mind2web", "--collect-only", "-q", "-k", "website_finance_google",
                                           *SUBPROCESS)
    result.stdout.fnmatch_lines(["*::t-stock", "1/3 tests collected (2 deselected)*"])


def test_last_failed_and_resume_work_as_everywhere(pytester: pytest.Pytester, card: Path) -> None:
    pytester.runpytest_subprocess("mm-mind2web", "--agent", "noop", "--run-name", "r").assert_outcomes(failed=3)
    result = pytester.runpytest_subprocess("mm-mind2web", "--agent", "noop", "--run-name", "r", "--lf", "-k", "t-visa")
    result.assert_outcomes(failed=1)
    before = records(pytester.path, "r")["t-dogs"]["timings"]["started"]
    result = pytester.runpytest_subprocess("mm-mind2web", "--agent", "noop", "--run-name", "r", "--resume")
    result.assert_outcomes(failed=3)
    assert records(pytester.path, "r")["t-dogs"]["timings"]["started"] == before  # kept, not run again


def test_the_original_layout_runs_with_its_own_k_and_seed(pytester: pytest.Pytester) -> None:
    write_parquet(pytester.path / "original" / "test_task-00000-of-00001.parquet",
                  [original_row("flight", 0), original_row("flight", 1, op="TYPE", value="Paris"),
                   original_row("hotel", 0, task="Book a hotel in Rome.", image=False),
                   original_row("hotel", 1, task="Book a hotel in Rome.", op="SELECT", value="2 adults")])
    result = pytester.runpytest_subprocess("original", "--agent", "oracle", "--mind2web-distractors", "7",
                                           "--mind2web-seed", "3", *SUBPROCESS)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*2 tasks, 3 valid steps"])  # the hotel's first row has no screenshot
    saved = records(pytester.path, "oracle")["flight"]
    assert [len(p["candidates"]) for p in saved["evaluation"][0]["parts"]] == [8, 8]
    assert pytester.runpytest_subprocess("original", "--agent", "noop", *SUBPROCESS).ret == 1


def test_bad_input_errors_its_own_tasks_naming_file_row_and_field(pytester: pytest.Pytester) -> None:
    rows = card_rows()
    rows[5]["target_op"] = "HOVER"
    bad_rows = write_parquet(pytester.path / "m2w" / "test_task-0.parquet", rows)
    no_column = write_parquet(pytester.path / "m2w" / "test_domain-0.parquet",
                              [{k: v for k, v in row.items() if k != "is_valid"} for row in card_rows()[:1]])
    broken = pytester.path / "m2w" / "test_website-0.parquet"
    broken.write_bytes(b"not parquet at all")
    result = pytester.runpytest_subprocess("m2w", "--agent", "oracle", *SUBPROCESS)
    result.assert_outcomes(passed=2, errors=3)
    result.stdout.fnmatch_lines([
        f"*{bad_rows}: task 't-visa': field 'target_op': row 5: must be one of CLICK, TYPE, SELECT, got 'HOVER'",
        f"*{no_column}: field 'is_valid': required column is missing",
        f"*{broken}: cannot read as Parquet:*",
    ])


def test_shards_make_one_set_and_a_task_in_two_unrelated_files_errors(pytester: pytest.Pytester) -> None:
    rows = card_rows()
    write_parquet(pytester.path / "hub" / "test-00000-of-00002.parquet", rows[:4])  # t-stock straddles the two
    write_parquet(pytester.path / "hub" / "test-00001-of-00002.parquet", rows[4:])
    copy = write_parquet(pytester.path / "hub" / "test-mine.parquet", rows[5:])  # t-visa again, collected after
    result = pytester.runpytest_subprocess("hub", "--agent", "oracle", "-n", "2", *SUBPROCESS)
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines([f"*{copy}: task 't-visa': field 'task_id': the task also has rows in "
                                 f"{pytester.path / 'hub' / 'test-00000-of-00002.parquet'}*"])
    stock = records(pytester.path, "oracle")["t-stock"]
    assert [step["index"] for step in stock["steps"]] == [0, 1] and stock["score"] == 1.0


def test_validate_checks_oracle_1_a_near_miss_0_and_noop_0(pytester: pytest.Pytester, card: Path) -> None:
    result = pytester.runpytest_subprocess("mm-mind2web", "--validate", *SUBPROCESS)
    result.assert_outcomes(passed=9)
    near_miss = records(pytester.path, "validate")["t-dogs-oracle-near-miss"]
    assert [p["success"] for p in near_miss["evaluation"][0]["parts"]] == [True, False, False]
    assert near_miss["score"] == 0.0 and near_miss["evaluation"][0]["parts"][2]["element"] is False


# -- the model agents -----------------------------------------------------------------------------

#: What the scripted model answers in round 2 of each valid step, in the order the steps run (one
#: worker: file order), and the hand computation of what that scores. Valid steps:
#: t-dogs 0 right; t-dogs 2 element right, "type new" for "type new york" (F1 0.8); t-stock 0
#: the wrong element with the right operation (F1 1); t-stock 1 unparsable (F1 0); t-visa 0 right.
FINAL_ANSWERS = [
    "ELEMENT: C\nACTION: CLICK\nVALUE: None",  # (t-dogs 1 is invalid: not asked)
    "ELEMENT: A\nACTION: TYPE\nVALUE: new",
    "ELEMENT: B\nACTION: CLICK\nVALUE: None",
    "I cannot find the period selector.",
    "Reiterating: the visa link.\nELEMENT: B\nACTION: CLICK\nVALUE: None",
]
HAND = {"tasks": 3, "steps": 5, "step_success": 0.4, "task_success": 0.3333, "op_f1": 0.76, "element_accuracy": 0.6}
HAND_TEST_DOMAIN = {"tasks": 2, "steps": 3, "step_success": 0.6667, "task_success": 0.5, "op_f1": 0.9333,
                    "element_accuracy": 1.0}


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


def _script(server: LLMServer) -> None:
    for n, answer in enumerate(FINAL_ANSWERS):
        server.script(Reply(f"I will act on the page of step {n}.", prompt_tokens=100, completion_tokens=10),
                      Reply(answer, prompt_tokens=150, completion_tokens=12))


@pytest.mark.parametrize(("agent", "wire"), [("openai:scripted-vlm", "openai"), ("anthropic:scripted-vlm", "anthropic")])
def test_a_scripted_model_runs_the_two_rounds_and_scores_as_by_hand(pytester: pytest.Pytester, card: Path,
                                                                    server: LLMServer, agent: str, wire: str) -> None:
    _script(server)
    url = server.openai_url if wire == "openai" else server.anthropic_url
    result = pytester.runpytest_subprocess("mm-mind2web", "--agent", agent, "--llm-base-url", url, "--run-name", "model",
                                           "--agent-option", "backoff=0", "--agent-option", "price=1,2", *SUBPROCESS)
    result.assert_outcomes(passed=1, failed=2)
    figures = summary_of(pytester.path, "model")["mind2web"]
    assert {key: figures[key] for key in HAND} == HAND
    assert figures["by_split"]["test_domain"] == HAND_TEST_DOMAIN
    assert server.pending == 0 and len(server.requests) == 10 and {r.wire for r in server.requests} == {wire}

    first, second = server.requests[0], server.requests[1]
    assert first.system_texts() == ["Imitate a person browsing."] and len(first.images()) == 1
    assert second.body["max_tokens"] == 500 and (second.body.get("temperature") == 0) == (wire == "openai")
    assert second.turns("assistant") == 1 and "\n\nI will act on the page of step 0." in second.texts("assistant")
    assert second.texts("user")[-1].startswith("(Multichoice Question)") and len(second.images()) == 1

    saved = records(pytester.path, "model")
    assert saved["t-dogs"]["steps"][1]["kind"] == "invalid" and saved["t-dogs"]["steps"][1]["response"] == ""
    step = saved["t-dogs"]["steps"][2]
    assert step["response"] == FINAL_ANSWERS[1] and step["action"] == {"chosen": 0, "op": "TYPE", "value": "new"}
    assert step["usage"] == {"prompt_tokens": 250, "completion_tokens": 22, "cost_usd": 0.000294, "attempts": 2}
    assert "<image 64x40>" in json.dumps(step["prompt"]) and "base64" not in json.dumps(step["prompt"])
    assert saved["t-stock"]["steps"][1]["kind"] == "none"  # unparsable: a wrong step, its text kept
    assert summary_of(pytester.path, "model")["tokens"] == 5 * 272

    # the recorded answers scored again, with no model
    replay = pytester.runpytest_subprocess("mm-mind2web", "--agent", "replay:results/model", "--run-name", "again",
                                           *SUBPROCESS)
    replay.assert_outcomes(passed=1, failed=2)
    assert {key: summary_of(pytester.path, "again")["mind2web"][key] for key in HAND} == HAND
    assert len(server.requests) == 10


def test_an_empty_first_reply_goes_back_in_words(pytester: pytest.Pytester, card: Path, server: LLMServer) -> None:
    server.script(Reply(""), Reply("ELEMENT: B\nACTION: CLICK\nVALUE: None"))
    result = pytester.runpytest_subprocess("mm-mind2web", "-k", "t-visa", "--agent", "anthropic:scripted",
                                           "--llm-base-url", server.anthropic_url, *SUBPROCESS)
    result.assert_outcomes(passed=1)
    assert "\n\n(no reply)" in server.requests[1].texts("assistant")


def test_a_model_server_that_keeps_failing_is_an_error_not_a_score(pytester: pytest.Pytester, card: Path,
                                                                  server: LLMServer) -> None:
    server.script(*[Reply.error(503)] * 3)
    result = pytester.runpytest_subprocess("mm-mind2web", "-k", "t-visa", "--agent", "openai:scripted",
                                           "--llm-base-url", server.openai_url, "--agent-option", "backoff=0",
                                           "--agent-option", "retries=2", *SUBPROCESS)
    result.assert_outcomes(errors=1)
    record = records(pytester.path, "openai_scripted")["t-visa"]
    assert record["status"] == "error" and record["charged_to"]["party"] == "harness"

