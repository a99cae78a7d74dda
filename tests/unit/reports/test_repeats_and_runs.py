"""``--repeat``, the run manifest and ``spider2v-report compare / merge / table``, on real runs of
Multimodal-Mind2Web tasks (they need no environment, so a run takes a second), and on made-up
task summaries for the figures."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_spider2v.reports.command import main
from pytest_spider2v.reports.comparison import compare
from pytest_spider2v.reports.merging import MergeRefused, merge
from pytest_spider2v.reports.overview import render_overview
from pytest_spider2v.reports.runs import RecordedRun
from pytest_spider2v.reports.summary import format_summary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.reports.timing import TIME_PARTS, time_parts
from pytest_spider2v.run.results import TaskResult
from tests.support.mind2web import card_rows, write_parquet


def summary_of(nodeid: str, status: str, repeat: int = 1, repeats: int = 1, app: str = "dbt") -> TaskSummary:
    return TaskSummary.of(TaskResult.from_json({
        "nodeid": nodeid, "task_id": nodeid.split("[")[0], "app": app, "apps": [app], "category": "x",
        "difficulty": "easy", "interface": "gui", "variant": "abstract", "status": status,
        "score": 1.0 if status == "passed" else 0.0 if status == "failed" else None,
        "repeat": {"index": repeat, "of": repeats}, "timings": {"total": 10.0}}))


# -- the figures of repeats ---------------------------------------------------------------------------


def test_a_task_that_passes_once_in_two_repeats_is_flaky_and_pass_at_2_is_not_pass_hat_2() -> None:
    runs = [summary_of("a[1-2]", "passed", 1, 2), summary_of("a[2-2]", "failed", 2, 2),
            summary_of("b[1-2]", "passed", 1, 2), summary_of("b[2-2]", "passed", 2, 2)]
    summary = summarize(runs)
    overall = summary.overall
    assert [task.nodeid for task in summary.flaky] == ["a"]
    assert (overall.tasks_attempted, overall.success_rate) == (2, 0.75)  # (0.5 + 1) / 2 tasks
    assert (overall.pass_at_k, overall.pass_hat_k, overall.flaky) == (1.0, 0.5, 1)
    lines = format_summary(summary)
    assert lines[0].startswith("4 runs (2 tasks attempted, --repeat 2): success rate 75.0%")
    assert lines[1].endswith("over the 2 tasks attempted (Wilson score, the task as the unit); pass@2 100.0%, "
                             "pass^2 50.0%; 1 flaky (repeats disagree)")
    assert "  a  -- passed 1 of 2" in lines
    html = render_overview(summary)
    assert "over 4 runs attempted of 4 (2 tasks, --repeat 2)" in html
    assert '<table class="flaky"><tr><th>task</th><th class=num>passed</th></tr><tr><td>a</td>' in html


def test_an_error_is_a_failed_repeat_and_the_interval_counts_tasks_not_runs() -> None:
    runs = [summary_of(f"t{i}[{r}-3]", "error" if (i, r) == (0, 3) else "passed", r, 3) for i in range(4)
            for r in (1, 2, 3)]
    overall = summarize(runs).overall
    assert overall.tasks_attempted == 4 and overall.total == 12
    # Wilson over 4 tasks of mean (2/3 + 1 + 1 + 1) / 4; over 12 runs it would be narrower
    assert overall.interval is not None and overall.interval.low < 0.55
    assert (overall.pass_at_k, overall.pass_hat_k) == (1.0, 0.75)


def test_a_run_without_repeats_keeps_its_headline_and_still_has_an_interval_over_tasks() -> None:
    summary = summarize([summary_of("a", "passed"), summary_of("b", "failed")])
    lines = format_summary(summary)
    assert lines[0].startswith("2 tasks: success rate 50.0% over 2 attempted")
    assert lines[1] == "95% interval [9.5%, 90.5%] over the 2 tasks attempted (Wilson score, the task as the unit)"
    assert summary.overall.pass_at_k is None and "flaky" not in "\n".join(lines)


def test_the_time_of_a_task_splits_into_its_parts_and_the_rest() -> None:
    result = TaskResult.from_json({
        "timings": {"restore": 4.0, "setup": 2.0, "reset": 7.0, "episode": 20.0, "evaluation": 3.0, "total": 40.0},
        "steps": [{"index": 1, "think": 5.0, "timings": {"execute": 1.5, "observe": {"screenshot": 0.5}}},
                  {"index": 2, "think": 6.0, "timings": {"execute": 2.5, "observe": {"screenshot": 0.5, "tree": 1.0}}}],
        "attempts": [{"attempt": 1, "timings": {"restore": 10.0}}]})
    parts = time_parts(result)
    assert parts == {"reset": 14.0, "setup": 3.0, "thinking": 11.0, "actions": 4.0, "observations": 2.0,
                     "evaluation": 3.0, "other": 3.0}
    assert list(parts) == list(TIME_PARTS) and sum(parts.values()) == 40.0


# -- real runs -----------------------------------------------------------------------------------------


@pytest.fixture
def tasks(pytester: pytest.Pytester) -> Path:
    write_parquet(pytester.path / "m2w" / "test.parquet", card_rows())
    return pytester.path


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("m2w", "-p", "no:randomly", *args)


def test_repeat_runs_each_task_k_times_each_with_its_record_and_resume_reuses_them(pytester: pytest.Pytester,
                                                                                   tasks: Path) -> None:
    run(pytester, "--agent", "oracle").assert_outcomes(passed=3)
    first = json.loads((tasks / "results/oracle/mind2web/t-visa/result.json").read_text())
    result = run(pytester, "--agent", "oracle", "--repeat", "2", "--resume", "-v")
    result.assert_outcomes(passed=6)
    assert re.search(r"test\.parquet::t-visa\[1-2\] PASSED", result.stdout.str())
    assert re.search(r"test\.parquet::t-visa\[2-2\] PASSED", result.stdout.str())
    folders = sorted(p.parent.name for p in (tasks / "results/oracle").rglob("result.json"))
    assert folders == ["t-dogs", "t-dogs-repeat-2", "t-stock", "t-stock-repeat-2", "t-visa", "t-visa-repeat-2"]
    again = json.loads((tasks / "results/oracle/mind2web/t-visa/result.json").read_text())
    second = json.loads((tasks / "results/oracle/mind2web/t-visa-repeat-2/result.json").read_text())
    assert again["timings"]["started"] == first["timings"]["started"]  # resumed: the first run's record kept
    assert second["repeat"] == {"index": 2, "of": 2} and second["fingerprint"]
    summary = json.loads((tasks / "results/oracle/summary.json").read_text())
    assert (summary["repeats"], summary["pass_at_k"], summary["pass_hat_k"], summary["flaky"]) == (2, 1.0, 1.0, [])
    assert summary["interval"] == {"low": 0.4385, "high": 1.0}  # Wilson, 3 of 3 tasks
    assert summary["manifest"]["repeats"] == 2 and len(summary["manifest"]["resumed"]) == 1


def test_last_failed_reruns_the_repeats_that_failed_and_only_those(pytester: pytest.Pytester, tasks: Path) -> None:
    result = pytester.runpytest_subprocess("m2w", "--agent", "noop", "--repeat", "2", "-k", "visa or dogs")
    result.assert_outcomes(failed=4)
    again = pytester.runpytest_subprocess("m2w", "--agent", "noop", "--repeat", "2", "--lf", "-v")
    again.assert_outcomes(failed=4)  # pytest 9 left the passed ones out at collection
    assert "run-last-failure: rerun previous 4 failures" in again.stdout.str()
    assert "t-stock" not in "".join(line for line in again.stdout.lines if "FAILED" in line)


def test_the_manifest_is_in_the_run_folder_the_summary_and_the_junit_properties(pytester: pytest.Pytester,
                                                                              tasks: Path) -> None:
    run(pytester, "--agent", "oracle", "--junitxml", "junit.xml", "--mind2web-seed", "7").assert_outcomes(passed=3)
    manifest = json.loads((tasks / "results/oracle/manifest.json").read_text())
    assert manifest["agent"] == {"name": "oracle", "parameters": {"mind2web_distractors": 20, "mind2web_seed": 7}}
    assert manifest["tasks"]["count"] == 3 and manifest["settings"]["max_steps"] == 15
    assert {"started", "finished", "machine", "project", "errata"} <= set(manifest)
    assert manifest["machine"]["cores"] >= 1
    properties = {p.get("name"): p.get("value") for p in ET.parse(tasks / "junit.xml").iter("property")}
    assert properties["spider2v.tasks.digest"] == manifest["tasks"]["digest"]
    assert properties["spider2v.agent.parameters.mind2web_seed"] == "7"


def test_a_secret_agent_option_is_masked_in_the_manifest(pytester: pytest.Pytester, tasks: Path) -> None:
    run(pytester, "--agent", "oracle", "--agent-option", "api_key=sk-very-secret")
    text = (tasks / "results/oracle/manifest.json").read_text()
    assert "sk-very-secret" not in text and '"api_key": "***"' in text


def test_a_model_s_manifest_states_the_sampling_its_answers_use(pytester: pytest.Pytester, tasks: Path) -> None:
    """Mind2Web's model answers use the card's sampling, not the desktop agents' defaults."""
    result = pytester.runpytest_subprocess("m2w", "--agent", "gpt-4o", "--llm-base-url", "http://127.0.0.1:9",
                                           "--agent-option", "retries=0", "-k", "visa", "--max-tokens", "300")
    assert result.ret != 0  # nothing answers there: the manifest is what is looked at
    parameters = json.loads((tasks / "results/gpt-4o/manifest.json").read_text())["agent"]["parameters"]
    assert (parameters["mind2web_max_tokens"], parameters["mind2web_temperature"]) == ("300", "0")
    assert (parameters["model"], parameters["temperature"], parameters["max_tokens"]) == ("gpt-4o", 0.5, 300)


def test_compare_an_oracle_run_with_a_noop_run(pytester: pytest.Pytester, tasks: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    run(pytester, "--agent", "oracle")
    run(pytester, "--agent", "noop")
    page = tasks / "compare.html"
    assert main(["compare", str(tasks / "results/oracle"), str(tasks / "results/noop"), "--html", str(page),
                 "--markdown", str(tasks / "compare.md")]) == 0
    out = capsys.readouterr().out
    assert "compared over the 3 tasks every run attempted" in out and "WARNING" not in out
    assert ("oracle - noop: difference +100.0%, 95% interval [+100.0%, +100.0%] (paired t over tasks); "
            "sign test (exact McNemar for one attempt per task): p = 0.25 (oracle better on 3, noop on 0)") in out
    assert "tasks that flip (pass in one, not the other): 3" in out
    html = page.read_text()
    assert html.count('class="spider2v-chart"') == 2 and 'id="spider2v-manifest"' in html
    assert "| oracle | oracle | 100.0% |" in (tasks / "compare.md").read_text()


def test_compare_warns_naming_what_differs(pytester: pytest.Pytester, tasks: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    run(pytester, "--agent", "oracle", "-k", "visa or dogs")
    run(pytester, "--agent", "noop", "--mind2web-seed", "7", "--max-steps", "5")
    comparison = compare([RecordedRun.read(tasks / "results/oracle"), RecordedRun.read(tasks / "results/noop")])
    assert len(comparison.shared) == 2
    warnings = "\n".join(comparison.warnings)
    assert "tasks: 2 vs 3 tasks, 0 only in the first, 1 only in the second; compared on the 2 shared" in warnings
    assert "settings.max_steps: 15 vs 5" in warnings and "agent.parameters.mind2web_seed: 42 vs 7" in warnings
    assert "agent.name" not in warnings  # what is compared, not a condition


def test_compare_warns_when_the_images_differ() -> None:
    def recorded(name: str, image: str) -> RecordedRun:
        task = TaskSummary.of(TaskResult.from_json({"nodeid": "t", "status": "passed", "score": 1.0, "image": image}))
        manifest = {"images": {"spider2v/desktop": [image.rpartition("@")[2]]}, "settings": {}, "agent": {}}
        return RecordedRun(Path(name), [task], manifest)

    comparison = compare([recorded("a", "spider2v/desktop@sha256:1"), recorded("b", "spider2v/desktop@sha256:2")])
    assert comparison.warnings == ["a vs b: images.spider2v/desktop: sha256:1 vs sha256:2"]


def test_merge_of_two_halves_equals_the_single_run_table(pytester: pytest.Pytester, tasks: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    run(pytester, "--agent", "oracle", "--repeat", "2")
    run(pytester, "--agent", "oracle", "--repeat", "2", "-k", "visa", "--run-name", "half-1")
    run(pytester, "--agent", "oracle", "--repeat", "2", "-k", "not visa", "--run-name", "half-2")
    results = tasks / "results"
    assert main(["merge", str(results / "half-1"), str(results / "half-2"), "--into", str(results / "merged")]) == 0
    capsys.readouterr()
    tables = {}
    for name in ("oracle", "merged"):
        for fmt in ("md", "csv", "json"):
            assert main(["table", str(results / name), "--format", fmt]) == 0
            tables[name, fmt] = capsys.readouterr().out
    for fmt in ("md", "csv", "json"):
        assert tables["merged", fmt] == tables["oracle", fmt]
    rows = list(csv.DictReader(io.StringIO(tables["merged", "csv"])))
    assert [r["section"] for r in rows][:2] == ["all", "app"] and rows[0]["tasks"] == "3"
    merged = json.loads((results / "merged/manifest.json").read_text())
    assert [shard["run"] for shard in merged["merged_from"]] == ["half-1", "half-2"]
    assert merged["tasks"] == json.loads((results / "oracle/manifest.json").read_text())["tasks"]


def test_merge_refuses_shards_of_different_runs_naming_why(pytester: pytest.Pytester, tasks: Path) -> None:
    run(pytester, "--agent", "oracle", "-k", "visa")
    run(pytester, "--agent", "noop", "-k", "not visa")
    run(pytester, "--agent", "noop", "-k", "stock", "--run-name", "again")
    results = tasks / "results"
    with pytest.raises(MergeRefused) as refused:
        merge([RecordedRun.read(results / "oracle"), RecordedRun.read(results / "noop")], results / "m")
    assert "agent.name: oracle vs noop" in str(refused.value)
    with pytest.raises(MergeRefused) as refused:
        merge([RecordedRun.read(results / "noop"), RecordedRun.read(results / "again")], results / "m")
    assert "mind2web/t-stock: recorded by both noop and again" in str(refused.value)
    assert not (results / "m").exists()


def test_show_reads_an_interrupted_run_and_says_it_did_not_finish(pytester: pytest.Pytester, tasks: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run(pytester, "--agent", "oracle")
    folder = tasks / "results/oracle"
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({k: v for k, v in manifest.items() if k != "finished"}))
    assert main(["show", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "(the run did not finish: its unfinished tasks count as errors)" in out
    assert "  tasks.count: 3" in out


def test_a_session_without_tasks_writes_no_manifest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert not (pytester.path / "results").exists()


def test_under_xdist_the_controller_writes_the_manifest_when_a_worker_collected_tasks(pytester: pytest.Pytester,
                                                                                     tasks: Path) -> None:
    from pytest_spider2v.reports.plugin import RunSummaryPlugin

    pytester.makepyfile("def test_nothing():\n    pass\n")
    config = pytester.parseconfigure("--agent", "oracle")
    plugin = RunSummaryPlugin(config)
    plugin.pytest_sessionstart(None)  # type: ignore[arg-type]
    written = tasks / "results/oracle/manifest.json"
    plugin.pytest_xdist_node_collection_finished(None, ["test_nothing.py::test_nothing"])
    assert not written.exists()  # a worker that collected no task
    plugin.pytest_xdist_node_collection_finished(None, ["m2w/test.parquet::t-visa"])
    assert json.loads(written.read_text())["agent"]["name"] == "oracle" and "finished" not in written.read_text()
