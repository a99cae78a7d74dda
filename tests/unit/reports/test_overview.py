"""The run at a glance at the top of the HTML report: tables and charts from the summary."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from pytest_spider2v.reports.overview import render_overview
from pytest_spider2v.reports.summary import format_summary, summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.results import TaskResult


def props(nodeid: str, apps: list[str], status: str, score: float | None, *, category: str = "data_warehousing",
          usage: dict[str, Any] | None = None, seconds: float = 60.0, **extra: Any) -> TaskSummary:
    return TaskSummary.of(TaskResult.from_json({
        "nodeid": nodeid, "task_id": nodeid, "app": apps[0], "apps": apps, "category": category, "difficulty": "easy",
        "interface": "cli", "variant": "abstract", "status": status, "score": score, "usage": usage or {},
        "timings": {"total": seconds}, **extra}))


def test_the_rate_without_the_errata_is_in_the_headline_and_the_tables() -> None:
    flagged = [{"kind": "errata", "reason": "lax_evaluator: any graph view passes"}]
    html = render_overview(summarize([props("a", ["airflow"], "passed", 1.0, flags=flagged),
                                      props("b", ["airflow"], "failed", 0.0)]))
    assert "; <b>0.0%</b> without the 1 tasks on the errata list" in html
    assert rows(html, "by-app")[1][:11] == ["airflow", "2", "2", "2", "1", "0", "0", "1", "50.0%", "50.0%", "0.0%"]


def charts(html: str) -> list[ET.Element]:
    return [ET.fromstring(svg) for svg in re.findall(r"<svg.*?</svg>", html, re.DOTALL)]


def rows(html: str, table_class: str) -> list[list[str]]:
    table = re.search(rf'<table class="{table_class}">(.*?)</table>', html, re.DOTALL)
    assert table, f"no {table_class} table"
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row) for row in re.findall(r"<tr>(.*?)</tr>", table.group(1))]


def test_every_grouping_has_its_table_and_chart_with_wall_time_and_no_spending_columns_when_none_was_spent() -> None:
    html = render_overview(summarize([
        props("a", ["dbt", "duckdb"], "passed", 1.0), props("b", ["dbt"], "failed", 0.5, seconds=30.0),
        props("c", ["airflow"], "error", None, category="data_orchestration"),
    ]))
    assert html.count('<section id="spider2v-overview"') == 1
    assert ("<b>Success rate 50.0%</b> over 3 tasks attempted of 3 (1 errors counted as 0 (1 with no charge recorded), "
            "as the papers score a failed run; 0 skipped, not attempted); 75.0% over the 2 that completed") in html
    assert "wall time 2m30s (summed over tasks)" in html and "tokens" not in html
    for title in ("app", "category", "difficulty", "interface", "variant"):
        assert f'<div id="spider2v-by-{title}"><h3>by {title}</h3>' in html
    assert rows(html, "by-app") == [
        ["app", "tasks", "runnable", "scored", "passed", "errors", "skipped", "errata", "success",
         "success of completed", "success w/o errata", "95% interval", "wall time"],
        ["airflow", "1", "1", "0", "0", "1", "0", "0", "0.0%", "n/a", "0.0%", "[0.0%, 79.3%]", "1m00s"],
        ["dbt", "2", "2", "2", "1", "0", "0", "0", "75.0%", "75.0%", "75.0%", "[19.8%, 97.3%]", "1m30s"],
        ["duckdb", "1", "1", "1", "1", "0", "0", "0", "100.0%", "100.0%", "100.0%", "[20.7%, 100.0%]", "1m00s"],
    ]
    assert len(charts(html)) == 5  # well-formed SVG, one per grouping


def test_tokens_and_cost_are_shown_per_group_when_the_agent_spent_them() -> None:
    summary = summarize([
        props("a", ["calc"], "passed", 1.0, usage={"prompt_tokens": 1200, "completion_tokens": 34, "cost": 0.0125}),
        props("b", ["calc"], "failed", 0.0, usage={"total_tokens": 800, "cost": 0.01}),
    ])
    html = render_overview(summary)
    assert rows(html, "by-app")[1] == ["calc", "2", "2", "2", "1", "0", "0", "0", "50.0%", "50.0%", "50.0%",
                                       "[9.5%, 90.5%]", "2,034", "$0.0225", "2m00s"]
    # the headline's facts read as the terminal prints them
    facts = "passed 1, tokens 2,034, cost $0.0225, wall time 2m00s (summed over tasks)"
    assert facts in format_summary(summary) and f"0 tampered &middot; {facts}</p>" in html


def test_names_are_escaped_and_long_ones_shortened_in_the_chart() -> None:
    long_name = "data_ingestion_and_integration_with_a_very_long_tail"
    html = render_overview(summarize([props("a", ["<script>x</script>"], "passed", 1.0, category=long_name)]))
    assert "<script>x" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert f"{long_name}</text>" in html
    charts(html)  # still well-formed


def test_a_replay_shows_the_changed_outcomes_and_a_dabench_run_its_accuracies() -> None:
    replayed = {"run": "results/gpt-4o", "agent": "gpt-4o", "status": "passed", "score": 1.0}
    question = {"facets": {"answer_names": ["mean"], "concepts": ["Summary Statistics"]},
                "evaluation": [{"parts": [{"name": "mean", "correct": True}]}]}
    html = render_overview(summarize([
        props("t::x", ["calc"], "failed", 0.0, replay_of=replayed),
        props("t::q", ["dabench"], "passed", 1.0, replay_of=replayed, **question),
    ]))
    assert "<h3>Replay of results/gpt-4o: 1 of 2 outcomes changed</h3>" in html
    assert rows(html, "replay-changed")[1] == ["t::x", "1.00", "0.00"]
    assert rows(html, "closed-form")[1] == ["all questions", "1", "100.0%", "100.0%", "100.0%"]
    assert ["concept: Summary Statistics", "1", "100.0%", "100.0%", "100.0%"] in rows(html, "closed-form")
