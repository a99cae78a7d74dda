"""What plugins add to the HTML report (``pytest_spider2v_report_columns``,
``pytest_spider2v_report_sections``), and the report's escaping: record text escaped once by the
templates, never twice, HTML a plugin built inserted as it is."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape
from pathlib import Path

import pytest
from markupsafe import Markup

from pytest_spider2v.reports.compare_page import render_comparison
from pytest_spider2v.reports.comparison import compare
from pytest_spider2v.reports.html import render_task
from pytest_spider2v.reports.overview import render_overview
from pytest_spider2v.reports.runs import RecordedRun
from pytest_spider2v.reports.sections import ReportColumn, ReportSection
from pytest_spider2v.reports.summary import summarize
from pytest_spider2v.reports.task_summary import TaskSummary
from pytest_spider2v.run.results import TaskResult
from tests.unit.reports.test_html import CONFTEST

HOSTILE = "<script>alert('x')</script> & co"
ESCAPED_ONCE = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"

PLUGIN = '''
from markupsafe import Markup
from pytest_spider2v.reports.sections import ReportColumn, ReportSection


def pytest_spider2v_report_columns(config):
    return [ReportColumn("variant", "Variant", lambda task: task.variant + " <&>")]


def pytest_spider2v_report_sections(summary):
    passed = [task.nodeid for task in summary.tasks if task.status == "passed"]
    return [ReportSection("passed_list", "Passed", Markup("<ul>") + Markup("").join(
                Markup("<li>{}</li>").format(nodeid) for nodeid in passed) + Markup("</ul>")),
            ReportSection("note", "A note", "<b>plain</b> text")]
'''


def test_a_plugin_adds_a_column_and_a_section_to_the_report(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST + PLUGIN)
    pytester.makepyfile(test_fake="def test_ok(passed_task): pass\n\ndef test_plain(): pass\n")
    pytester.runpytest("--html=report.html", "--self-contained-html").assert_outcomes(passed=2)
    report = (pytester.path / "report.html").read_text()
    # the column: a header after the report's own Task and Score, a cell for the task, an empty one for the test
    header = re.findall(r'<th class="sortable" data-column-type="(\w+)"', report)
    assert header[header.index("task"):header.index("task") + 3] == ["task", "score", "variant"]
    rows = [unescape(row) for row in re.findall(r'data-jsonblob="([^"]*)"', report)]
    cells = [cell for row in rows for cell in re.findall(r'<td class=\\"col-variant\\">(.*?)</td>', row)]
    assert sorted(cells) == ["", "abstract &lt;&amp;&gt;"]  # its text escaped once, in the cell
    # the sections, at the end of the run at a glance: Markup as it is, text escaped
    overview = report[report.index('<section id="spider2v-overview"'):]
    overview = overview[:overview.index("</section>")]
    assert ('<div id="spider2v-passed_list" class="s2v-plugin-section"><h3>Passed</h3>'
            "<ul><li>test_fake.py::test_ok</li></ul></div>") in overview
    assert "<h3>A note</h3>&lt;b&gt;plain&lt;/b&gt; text</div>" in overview


def test_without_a_plugin_the_table_has_the_reports_own_columns_and_the_overview_no_section(
        pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_fake="def test_ok(passed_task): pass\n")
    pytester.runpytest("--html=report.html", "--self-contained-html").assert_outcomes(passed=1)
    report = (pytester.path / "report.html").read_text()
    assert re.findall(r'<th class="sortable" data-column-type="(task|score|variant)"', report) == ["task", "score"]
    assert "s2v-plugin-section" not in report


def test_a_column_or_section_whose_name_is_no_html_name_is_refused() -> None:
    with pytest.raises(ValueError, match="letters, digits and underscores: 'my column'"):
        ReportColumn("my column", "Mine", lambda task: task.app)
    with pytest.raises(ValueError, match="letters, digits and underscores"):
        ReportSection('x" onclick="alert(1)', "Mine", "")


def test_a_sections_text_is_escaped_once_and_its_markup_kept() -> None:
    summary = summarize([TaskSummary("t", task_id="t", app="calc", status="passed", score=1.0)])
    html = render_overview(summary, sections=[ReportSection("text", HOSTILE, HOSTILE),
                                              ReportSection("markup", "Made", Markup("<em>mine</em>"))])
    assert f"<h3>{ESCAPED_ONCE}</h3>{ESCAPED_ONCE}</div>" in html
    assert "<h3>Made</h3><em>mine</em></div>" in html and "<script>" not in html


def test_record_text_is_escaped_once_in_a_task_the_overview_and_the_compare_page(tmp_path: Path) -> None:
    result = TaskResult.from_json({"task_id": HOSTILE, "app": "calc", "variant": "abstract", "instruction": HOSTILE,
                                   "status": "failed", "score": 0.0, "detail": HOSTILE,
                                   "evaluation": [{"func": "check", "score": 0.0, "detail": HOSTILE}],
                                   "steps": [{"index": 1, "response": HOSTILE, "action": HOSTILE, "kind": "code",
                                              "info": {"status": "error", "error": HOSTILE}}]})
    html = render_task(result, tmp_path)
    assert f"<h3>calc/{ESCAPED_ONCE} [abstract]</h3>" in html
    assert html.count(f"<pre>{ESCAPED_ONCE}</pre>") == 5  # instruction, detail, metric, reply, action
    assert f'<pre class="err">{ESCAPED_ONCE}</pre>' in html
    assert "<script>" not in html and "&amp;lt;" not in html and "&amp;amp;" not in html

    overview = render_overview(summarize([replace(TaskSummary.of(result), app=HOSTILE, apps=[HOSTILE])]))
    assert f'<tr><td>{ESCAPED_ONCE}</td><td class="num">1</td>' in overview  # the by-app table's row
    assert "<script>" not in overview and "&amp;lt;" not in overview and "&amp;amp;" not in overview

    runs = []
    for name in ("<run> & 'co'", "b"):  # a folder's name: no slash
        folder = tmp_path / "runs" / name
        (folder / "calc" / "t").mkdir(parents=True)
        record = {"task_id": "t", "nodeid": "t.json::t", "app": "calc", "status": "passed", "score": 1.0}
        (folder / "calc" / "t" / "result.json").write_text(json.dumps(record))
        runs.append(RecordedRun.read(folder))
    page = render_comparison(compare(runs))
    assert "<title>Spider2-V runs compared: &lt;run&gt; &amp; &#39;co&#39; vs b</title>" in page
    assert "<tr><td>&lt;run&gt; &amp; &#39;co&#39;</td><td>?</td>" in page  # its row of the runs' table
    assert "<script>" not in page and "&amp;lt;" not in page and "&amp;amp;" not in page
