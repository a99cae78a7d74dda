"""The reports' charts: inline SVG whose texts stay text, with nothing fetched from elsewhere."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

import pytest

from pytest_spider2v.reports.charts import CSS_CLASS, MAX_HEIGHT, Flip, RateBar, flips_chart, rates_chart

SVG = "{http://www.w3.org/2000/svg}"
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def parse(svg: str) -> ET.Element:
    """The chart as XML, checking on the way the conventions every chart keeps."""
    assert svg.startswith("<svg ")
    assert set(re.findall(r"https?://[^\s\"'<>)]*", svg)) <= NAMESPACES
    assert "<image" not in svg and "@import" not in svg and "@font-face" not in svg
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("class") == CSS_CLASS and root.get("role") == "img"
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]


def anchored(root: ET.Element) -> set[tuple[str, str]]:
    """Each text with its anchor: "start" is written right of its point, "end" left of it."""
    found = set()
    for element in root.iter(f"{SVG}text"):
        anchor = re.search(r"text-anchor: *(\w+)", element.get("style", ""))
        found.add(("".join(element.itertext()), anchor.group(1) if anchor else "start"))
    return found


def error_bars(svg: str) -> list[str]:
    return re.findall(r'id="(errorbar-[^"]*)"', svg)


def height(root: ET.Element) -> float:
    return float(root.get("height", "").removesuffix("pt"))


def bar(group: str, series: str, rate: float | None, low: float | None = None, high: float | None = None) -> RateBar:
    return RateBar(group, series, rate, low, high)


def test_the_title_labels_the_chart_for_screen_readers_and_tooltips() -> None:
    root = parse(rates_chart([bar("excel", "oracle", 0.5, 0.2, 0.8)], 'Rates by app: "a" < b & c'))
    assert root.get("aria-label") == 'Rates by app: "a" < b & c'
    assert root[0].tag == f"{SVG}title" and root[0].text == 'Rates by app: "a" < b & c'
    assert 'Rates by app: "a" < b & c' in texts(root)


def test_several_series_and_groups_have_their_bars_intervals_and_percentages_as_text() -> None:
    bars = [bar("all", "oracle", 0.42, 0.33, 0.52), bar("all", "gpt-4o", 0.55, 0.45, 0.64),
            bar("excel", "oracle", 0.8, 0.38, 0.96), bar("excel", "gpt-4o", 1.0, 0.57, 1.0),
            bar("dbt", "oracle", 1 / 3, 0.1, 0.7), bar("dbt", "gpt-4o", 0.0, 0.0, 0.43)]
    svg = rates_chart(bars, "success rate by app")
    shown = texts(parse(svg))
    assert {"all", "excel", "dbt", "oracle", "gpt-4o", "success rate by app"} <= set(shown)
    assert {"42.0%", "55.0%", "80.0%", "100.0%", "33.3%", "0.0%"} <= set(shown)
    assert {"0%", "40%", "100%"} <= set(shown)  # the axis, in percent
    assert sorted(error_bars(svg)) == sorted(["errorbar-all-oracle", "errorbar-all-gpt-4o", "errorbar-excel-oracle",
                                              "errorbar-excel-gpt-4o", "errorbar-dbt-oracle", "errorbar-dbt-gpt-4o"])


def test_no_rate_is_a_gap_and_no_interval_no_error_bar() -> None:
    bars = [bar("excel", "oracle", 0.5, 0.2, 0.8), bar("excel", "gpt-4o", None),
            bar("airflow", "oracle", 0.25), bar("airflow", "gpt-4o", 0.75, 0.5, None)]
    svg = rates_chart(bars, "rates")
    shown = texts(parse(svg))
    assert {"50.0%", "25.0%", "75.0%", "n/a"} <= set(shown)
    assert len([text for text in shown if text.endswith(".0%")]) == 3  # the gap has no percentage
    assert error_bars(svg) == ["errorbar-excel-oracle"]
    assert sorted(re.findall(r'id="(bar-[^"]*)"', svg)) == ["bar-airflow-gpt-4o", "bar-airflow-oracle",
                                                            "bar-excel-oracle"]  # the gap has no bar


def test_the_error_bars_follow_the_bars_that_have_an_interval() -> None:
    counts = []
    for with_interval in range(4):
        bars = [bar(f"app{i}", "run", 0.5, *((0.3, 0.7) if i < with_interval else (None, None))) for i in range(3)]
        counts.append(len(error_bars(rates_chart(bars, "rates"))))
    assert counts == [0, 1, 2, 3]


def test_one_series_needs_no_legend() -> None:
    shown = texts(parse(rates_chart([bar("excel", "oracle", 0.5), bar("all", "oracle", 0.5)], "rates")))
    assert "oracle" not in shown and {"excel", "all"} <= set(shown)


def test_names_that_cannot_be_ids_are_reduced_in_the_error_bars_ids() -> None:
    svg = rates_chart([bar("dbt & jupyter", "run <1>", 0.5, 0.4, 0.6)], "rates")
    assert "dbt & jupyter" in texts(parse(svg))
    assert error_bars(svg) == ["errorbar-dbt---jupyter-run--1-"]


def test_nothing_to_chart_still_makes_a_chart_that_says_so() -> None:
    root = parse(rates_chart([], "success rate by app"))
    assert sorted(texts(root)) == ["no success rates to chart", "success rate by app"]


def test_the_height_grows_with_the_groups_up_to_a_cap() -> None:
    def chart_height(groups: int) -> float:
        return height(parse(rates_chart([bar(f"app{i}", s, 0.5) for i in range(groups) for s in "ab"], "rates")))

    assert chart_height(1) < chart_height(3) < chart_height(10) < chart_height(40) == chart_height(80)
    assert chart_height(80) == pytest.approx(72 * MAX_HEIGHT)


def test_the_charts_stylesheet_applies_to_the_charts_only() -> None:
    svg = rates_chart([bar("excel", "oracle", 0.5)], "rates")
    assert f".{CSS_CLASS} *{{" in svg
    assert re.search(r"[>}]\s*\*\s*\{", svg) is None


def test_flips_are_counted_per_group_each_way() -> None:
    flips = [Flip("t1", "excel", 1, 0), Flip("t2", "excel", 1, 0), Flip("t3", "excel", 0, 1),
             Flip("t4", "airflow", 0, 1), Flip("t5", "airflow", 0, 1), Flip("t6", "airflow", 0, 1),
             Flip("t7", "dbt", 1, 1), Flip("t8", "dbt", 0, 0), Flip("t9", "bigquery", 0.5, 0.25)]
    root = parse(flips_chart(flips, ("oracle", "gpt-4o"), "tasks that flipped"))
    shown = set(texts(root))
    assert {"excel", "airflow", "bigquery", "oracle only", "gpt-4o only", "tasks that flipped"} <= shown
    assert "dbt" not in shown  # its tasks scored the same in both runs
    # A's counts are written right of their bars, B's left of theirs.
    counts = {(text, anchor) for text, anchor in anchored(root) if anchor != "middle" and text.isdigit()}
    assert counts == {("2", "start"), ("1", "end"), ("3", "end"), ("1", "start")}


@pytest.mark.parametrize("flips", [[], [Flip("t1", "excel", 1, 1), Flip("t2", "excel", 0, 0)]])
def test_no_flip_makes_a_chart_that_says_so(flips: list[Flip]) -> None:
    root = parse(flips_chart(flips, ("oracle", "gpt-4o"), "tasks that flipped"))
    assert sorted(texts(root)) == ["no task flips", "tasks that flipped"]


def test_charts_drawn_at_once_in_threads_keep_their_texts_and_leave_matplotlib_settings_alone() -> None:
    import matplotlib

    before = matplotlib.rcParams["svg.fonttype"]
    bars = [bar(f"app{i}", "run", i / 10, max(0.0, i / 10 - 0.1), i / 10 + 0.1) for i in range(8)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        charts = list(pool.map(lambda n: rates_chart(bars[:n], f"chart {n}"), range(1, 13)))
    for n, svg in enumerate(charts, start=1):
        assert f"chart {n}" in texts(parse(svg))
        assert len(error_bars(svg)) == min(n, 8)
    assert matplotlib.rcParams["svg.fonttype"] == before


def test_importing_the_charts_does_not_import_matplotlib() -> None:
    code = ("import sys, pytest_spider2v.reports.charts; "
            "sys.exit(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib') or 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
