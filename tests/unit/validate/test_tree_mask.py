"""What the reset check ignores, and what it must still see."""

from __future__ import annotations

import pytest

from pytest_spider2v.validate.tree_mask import mask_clocks

NS = ('xmlns:st="uri:deskat:state.at-spi.gnome.org" xmlns:cp="uri:deskat:component.at-spi.gnome.org"')


def tree(body: str) -> str:
    return f'<desktop-frame {NS} name="Desktop">{body}</desktop-frame>'


def node(role: str, name: str, x: int, y: int, w: int, h: int, body: str = "", text: str = "") -> str:
    """A showing node with its geometry (parent-relative position left as screen position)."""
    geometry = f'cp:screencoord="({x}, {y})" cp:windowcoord="({x}, {y})" cp:parentcoord="({x}, {y})" cp:size="({w}, {h})"'
    return f'<{role} name="{name}" st:showing="true" {geometry}>{text}{body}</{role}>'


def page(body: str) -> str:
    """A browser window holding a web page."""
    return tree(node("frame", "Airflow - Chromium", 0, 0, 1280, 800,
                     node("document-web", "Airflow", 0, 80, 1280, 720, body)))


def navbar(clock: str, clock_x: int, clock_w: int, menu_x: int, list_x: int, list_w: int,
           content_w: int = 1200) -> str:
    """Airflow's navbar: a list holding the clock and, after it, the user menu; content below."""
    items = (node("list-item", "", clock_x, 80, clock_w, 60, node("link", clock, clock_x, 80, clock_w, 60, text=clock))
             + node("list-item", "", menu_x, 80, 40, 60, node("link", "AD", menu_x, 80, 40, 60, text="AD")))
    bar = node("section", "", 0, 80, 1280, 60, node("list", "", list_x, 80, list_w, 60, items))
    content = node("heading", "DAGs", 40, 160, content_w, 30, text="DAGs")
    return page(bar + content)


def test_clock_times_and_dates_are_masked() -> None:
    a = tree('<label name="clock" st:showing="true">09:41 AM, 2026-11-23</label>')
    b = tree('<label name="clock" st:showing="true">10:02 AM, 2026-11-24</label>')
    assert mask_clocks(a) == mask_clocks(b)


def test_an_iso_timestamp_is_masked_whole_across_the_hour_and_the_day() -> None:
    """Airflow's navbar clock: two resets either side of 02:00 (a reset check failed so)."""
    def clock(stamp: str) -> str:
        return tree(f'<static name="" st:showing="true" datetime="{stamp}">x</static>')
    first, second = clock("2026-11-27T01:59:58.412+00:00"), clock("2026-11-27T02:00:03.005+00:00")
    assert mask_clocks(first) == mask_clocks(second)
    assert mask_clocks(clock("2026-11-27T23:59:59Z")) == mask_clocks(clock("2026-11-28T00:00:01Z"))
    assert "2026" not in mask_clocks(first)


@pytest.mark.parametrize(("first", "second"), [("41 seconds ago", "38 seconds ago"),
                                                ("a few seconds ago", "a minute ago"),
                                                ("59 minutes ago", "an hour ago")])
def test_times_relative_to_now_are_masked(first: str, second: str) -> None:
    """Dagster's code locations table says when each location was loaded, relative to now."""
    a = tree(f'<static name="{first}" st:showing="true">{first}</static>')
    b = tree(f'<static name="{second}" st:showing="true">{second}</static>')
    assert mask_clocks(a) == mask_clocks(b)


def test_a_countdown_run_into_the_next_word_is_masked() -> None:
    """Dagster's refresh countdown and the tab names after it form one section's text."""
    a = tree('<section name="" st:showing="true">0:28Runsor</section>')
    b = tree('<section name="" st:showing="true">0:29Runsor</section>')
    assert mask_clocks(a) == mask_clocks(b)


def test_the_hours_of_a_timeline_and_where_they_are_are_masked() -> None:
    """Dagster's overview timeline slides its hour labels to the left as time passes."""
    def timeline(x: int, first: str) -> str:
        labels = "".join(node("static", hour, x + 105 * i, 400, 38, 16, text=hour)
                         for i, hour in enumerate([first, "12PM", "1PM"]))
        return page(node("section", "", 240, 400, 1680, 16, labels) + node("heading", "Runs", 240, 300, 80, 20, text="Runs"))
    assert mask_clocks(timeline(637, "11AM")) == mask_clocks(timeline(635, "11AM"))
    assert mask_clocks(timeline(637, "11AM")) == mask_clocks(timeline(742, "10AM"))
    assert mask_clocks(timeline(637, "11AM")) != mask_clocks(timeline(637, "11AM").replace('"Runs"', '"Jobs"'))


def test_a_link_s_visited_flag_is_ignored() -> None:
    """Chromium marks the link to a page just visited (Dagster's logo, to "/") a moment later."""
    plain = tree('<link name="" st:showing="true" st:focusable="true" />')
    visited = tree('<link name="" st:showing="true" st:focusable="true" st:visited="true" />')
    assert mask_clocks(plain) == mask_clocks(visited)
    assert mask_clocks(plain) != mask_clocks(tree('<link name="" st:showing="true" />'))


def test_the_order_of_a_web_element_s_classes_is_ignored_but_not_the_classes() -> None:
    """JupyterLab's tab gained "jp-mod-dirty" before "jp-mod-active" in one reset, after in the other."""
    def tab(classes: str) -> str:
        return tree(f'<page-tab xmlns:at="uri:deskat:attributes.at-spi.gnome.org" name="a.ipynb" '
                    f'st:showing="true" at:class="{classes}" />')

    assert mask_clocks(tab("lm-TabBar-tab  jp-mod-dirty jp-mod-active")) == mask_clocks(tab("lm-TabBar-tab jp-mod-active jp-mod-dirty"))
    assert mask_clocks(tab("lm-TabBar-tab jp-mod-active")) != mask_clocks(tab("lm-TabBar-tab jp-mod-active jp-mod-dirty"))


def test_a_count_of_seconds_is_not_a_time_relative_to_now() -> None:
    a = tree('<static name="took 41 seconds" st:showing="true">took 41 seconds</static>')
    b = tree('<static name="took 38 seconds" st:showing="true">took 38 seconds</static>')
    assert mask_clocks(a) != mask_clocks(b)


def test_what_a_clock_s_width_moves_is_masked() -> None:
    """The flake seen in CI: a clock one pixel narrower, its container too, the next item moved."""
    wide = navbar("12:34 UTC", 1100, 59, 1159, 1100, 99)
    narrow = navbar("12:41 UTC", 1100, 58, 1158, 1100, 98)
    assert mask_clocks(wide) == mask_clocks(narrow)


def test_a_clock_in_a_right_aligned_list_moves_itself_and_the_list() -> None:
    wide = navbar("12:34 UTC", 1100, 59, 1159, 1100, 99)
    narrow = navbar("12:41 UTC", 1101, 58, 1159, 1101, 98)
    assert mask_clocks(wide) == mask_clocks(narrow)


def test_geometry_off_the_clock_s_line_still_counts() -> None:
    before = navbar("12:34 UTC", 1100, 59, 1159, 1100, 99)
    assert mask_clocks(before) != mask_clocks(navbar("12:34 UTC", 1100, 59, 1159, 1100, 99, content_w=1201))
    assert mask_clocks(before) != mask_clocks(navbar("12:41 UTC", 1100, 58, 1158, 1100, 98, content_w=1201))


def test_vertical_geometry_on_the_clock_s_line_still_counts() -> None:
    before = navbar("12:34 UTC", 1100, 59, 1159, 1100, 99)
    taller = before.replace('name="AD" st:showing="true" cp:screencoord="(1159, 80)" cp:windowcoord="(1159, 80)" '
                            'cp:parentcoord="(1159, 80)" cp:size="(40, 60)"',
                            'name="AD" st:showing="true" cp:screencoord="(1159, 80)" cp:windowcoord="(1159, 80)" '
                            'cp:parentcoord="(1159, 80)" cp:size="(40, 61)"')
    assert taller != before
    assert mask_clocks(before) != mask_clocks(taller)


def test_without_masked_text_a_line_s_geometry_counts() -> None:
    assert mask_clocks(navbar("Docs", 1100, 59, 1159, 1100, 99)) != mask_clocks(navbar("Docs", 1100, 58, 1158, 1100, 98))


def test_a_clock_moves_nothing_outside_its_frame() -> None:
    """A window beside the browser, on the clock's line, keeps all its geometry."""
    def desktop(clock: str, clock_w: int, other_x: int) -> str:
        browser = node("document-web", "Airflow", 0, 80, 640, 720,
                       node("link", clock, 500, 80, clock_w, 60, text=clock))
        other = node("frame", "Terminal", other_x, 0, 640, 800, node("push-button", "Close", other_x + 600, 90, 30, 30))
        return tree(browser + other)
    assert mask_clocks(desktop("12:34 UTC", 59, 640)) == mask_clocks(desktop("12:41 UTC", 58, 640))
    assert mask_clocks(desktop("12:34 UTC", 59, 640)) != mask_clocks(desktop("12:34 UTC", 59, 641))


def test_a_date_in_a_window_title_moves_nothing_in_the_window() -> None:
    def calc(x: int) -> str:
        return tree(node("frame", "sales 2026-11-23.xlsx - LibreOffice Calc", 0, 0, 1280, 800,
                         node("push-button", "Save", x, 40, 30, 30)))
    assert mask_clocks(calc(100)) != mask_clocks(calc(101))


def test_a_date_off_screen_moves_nothing_on_screen() -> None:
    def footer_page(x: int) -> str:
        footer = '<paragraph name="" st:visible="true">Updated 2026-11-23</paragraph>'
        return page(node("section", "", 0, 80, 1280, 720, node("heading", "DAGs", x, 100, 200, 30, text="DAGs") + footer))
    assert mask_clocks(footer_page(40)) != mask_clocks(footer_page(41))


def test_a_date_in_a_table_moves_its_column_in_every_row() -> None:
    def runs(date: str, date_w: int) -> str:
        rows = (node("table-row", "", 0, 200, 600, 30, node("table-cell", date, 0, 200, date_w, 30, text=date)
                     + node("table-cell", "success", date_w, 200, 100, 30, text="success"))
                + node("table-row", "", 0, 230, 600, 30, node("table-cell", "", 0, 230, date_w, 30)
                       + node("table-cell", "queued", date_w, 230, 100, 30, text="queued")))
        return page(node("table", "runs", 0, 200, 600, 60, rows) + node("heading", "Logs", 0, 300, 400, 30, text="Logs"))
    assert mask_clocks(runs("2026-11-23, 10:01:02", 160)) == mask_clocks(runs("2026-11-23, 10:11:12", 158))
    moved_heading = runs("2026-11-23, 10:01:02", 160).replace("(0, 300)", "(1, 300)")
    assert mask_clocks(runs("2026-11-23, 10:01:02", 160)) != mask_clocks(moved_heading)


def test_geometry_of_hidden_nodes_is_ignored_but_not_of_showing_ones() -> None:
    hidden = '<table-cell name="Home" cp:screencoord="({x}, 32765)"/>'
    assert mask_clocks(tree(hidden.format(x=194603))) == mask_clocks(tree(hidden.format(x=210919)))
    shown = '<push-button name="OK" st:showing="true" cp:screencoord="({x}, 10)"/>'
    assert mask_clocks(tree(shown.format(x=100))) != mask_clocks(tree(shown.format(x=101)))


def test_a_focus_flag_above_the_focused_node_is_redundant() -> None:
    cell = '<table-cell name="A1" st:showing="true" st:focused="true"/>'
    stale = tree(f'<root-pane name="Calc" st:showing="true" st:focused="true">{cell}</root-pane>')
    clean = tree(f'<root-pane name="Calc" st:showing="true">{cell}</root-pane>')
    assert mask_clocks(stale) == mask_clocks(clean)


@pytest.mark.parametrize("other", ["B2", "A1 moved"])
def test_where_the_focus_is_still_counts(other: str) -> None:
    a = tree('<table name="Sheet1" st:showing="true"><table-cell name="A1" st:showing="true" st:focused="true"/>'
             '<table-cell name="B2" st:showing="true"/></table>')
    b = a.replace('name="A1" st:showing="true" st:focused="true"', 'name="A1" st:showing="true"')
    b = b.replace('name="B2" st:showing="true"', 'name="B2" st:showing="true" st:focused="true"')
    assert mask_clocks(a) != mask_clocks(b if other == "B2" else a.replace("A1", "A1 moved"))


def test_status_bar_messages_are_transient() -> None:
    loading = tree('<status-bar name="Loading file \u201cx.txt\u201d\u2026" st:showing="true"/>')
    idle = tree('<status-bar name="" st:showing="true"/>')
    assert mask_clocks(loading) == mask_clocks(idle)


def test_a_status_message_s_width_moves_the_fields_beside_it() -> None:
    def window(message: str, w: int) -> str:
        bar = (node("status-bar", message, 0, 770, w, 30, text=message)
               + node("label", "Page 1 of 1", w, 770, 90, 30, text="Page 1 of 1"))
        return tree(node("frame", "Writer", 0, 0, 1280, 800, node("panel", "", 0, 0, 1280, 800, bar)))
    assert mask_clocks(window("Saving\u2026", 60)) == mask_clocks(window("", 0))


def test_hidden_leaves_are_ignored_but_not_what_shows() -> None:
    toolbar = '<panel name="toolbar" st:showing="true">{extra}<push-button name="Reload" st:showing="true"/></panel>'
    labs = '<toggle-button name="Chrome Labs - pinned" st:enabled="true"/>'
    assert mask_clocks(tree(toolbar.format(extra=labs))) == mask_clocks(tree(toolbar.format(extra="")))
    shown = labs.replace('st:enabled="true"', 'st:enabled="true" st:showing="true"')
    assert mask_clocks(tree(toolbar.format(extra=shown))) != mask_clocks(tree(toolbar.format(extra="")))


def test_actions_a_page_attaches_late_are_ignored() -> None:
    early = tree('<landmark name="" st:showing="true" ac:doDefault_desc=""/>').replace("<desktop-frame ", '<desktop-frame xmlns:ac="uri:deskat:action.at-spi.gnome.org" ')
    late = early.replace("ac:doDefault_desc", "ac:clickAncestor_desc")
    assert mask_clocks(early) == mask_clocks(late)


def test_a_generated_element_id_is_masked() -> None:
    """JupyterLab gives its launcher a new ``id-<uuid4>`` at every page load."""
    launcher = ('<landmark xmlns:at="uri:deskat:attributes.at-spi.gnome.org" name="main area content" '
                'at:id="id-{}" st:showing="true" />')
    first = tree(launcher.format("bd12e0fd-ed36-4551-b913-ce297dc43014"))
    second = tree(launcher.format("540544e9-f8a1-4eda-88ad-63d45fd60485"))
    assert mask_clocks(first) == mask_clocks(second)
    assert mask_clocks(first) != mask_clocks(tree(launcher.format("main")))


def test_whether_a_timeline_s_hour_is_on_screen_is_masked() -> None:
    """Dagster 06398197: as the hours slide left, the next hour's label scrolls into view; which
    of them shows depends on the minute. A label that is not a time still counts."""
    def timeline(last_showing: bool, last: str = "2PM") -> str:
        shown = node("section", "", 1800, 227, 60, 32, node("static", last, 1800, 235, 38, 14, text=last))
        shown = shown.replace('st:showing="true"', 'st:showing="true" st:visible="true"')
        hidden = (f'<section name="" st:visible="true"><static name="{last}" st:visible="true">{last}</static>'
                  '</section>')
        labels = node("static", "1PM", 1700, 235, 38, 14, text="1PM") + (shown if last_showing else hidden)
        return page(node("section", "", 240, 227, 1680, 32, labels))
    assert mask_clocks(timeline(True)) == mask_clocks(timeline(False))
    assert mask_clocks(timeline(True, "Runs")) != mask_clocks(timeline(False, "Runs"))


def test_the_shortcut_tiles_chromium_fills_in_late_on_its_new_tab_page_are_ignored() -> None:
    """Chromium's new-tab page fills its shortcut tiles from the profile after the page shows: one
    reset of dagster 490e10e0 had "Web Store" and "Add shortcut" there, the other not yet. The
    same section on another page, and what follows it on the new-tab page, still count."""
    def new_tab(tiles: str, uri: str = "chrome://new-tab-page/", promo: str = "promo") -> str:
        at, doc = "uri:deskat:attributes.at-spi.gnome.org", "uri:deskat:attributes.document.at-spi.gnome.org"
        def web(role: str, tag: str, body: str = "", name: str = "") -> str:
            return (f'<{role} xmlns:at="{at}" xmlns:doc="{doc}" name="{name}" st:showing="true" at:tag="{tag}" '
                    f'doc:URI="{uri}">{body}</{role}>')
        return tree(web("section", "cr-most-visited", tiles) + web("section", promo))

    filled = ('<link name="Web Store" st:showing="true" /><push-button name="Add shortcut" st:showing="true" />')
    assert mask_clocks(new_tab(filled)) == mask_clocks(new_tab(""))
    assert mask_clocks(new_tab(filled, uri="https://example.org/")) != mask_clocks(new_tab("", uri="https://example.org/"))
    assert mask_clocks(new_tab("")) != mask_clocks(new_tab("", promo="ntp-middle-slot-promo"))
