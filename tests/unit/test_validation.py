"""What the reset check ignores, and what it must still see."""

from __future__ import annotations

import pytest

from pytest_spider2v.validation import mask_clocks

NS = ('xmlns:st="uri:deskat:state.at-spi.gnome.org" xmlns:cp="uri:deskat:component.at-spi.gnome.org"')


def tree(body: str) -> str:
    return f'<desktop-frame {NS} name="Desktop">{body}</desktop-frame>'


def test_clock_times_and_dates_are_masked() -> None:
    a = tree('<label name="clock" st:showing="true">09:41 AM, 2026-11-23</label>')
    b = tree('<label name="clock" st:showing="true">10:02 AM, 2026-11-24</label>')
    assert mask_clocks(a) == mask_clocks(b)


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
