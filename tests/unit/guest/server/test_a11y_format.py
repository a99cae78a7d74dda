"""The accessibility tree's shared format rules (guest side, importable on the host): which Calc
cells a walk emits, and how names and values are written."""

from __future__ import annotations

import pytest

from pytest_spider2v.guest.server.a11y_format import (
    CALC_GIVE_UP,
    add_action,
    add_pairs,
    cells_asked,
    clean_text,
    qname,
    showing_cells,
    tag,
)


def scan_asking(n_rows: int, n_cols: int, shown: set[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Drive the scan as a walk does: (cells emitted, cells asked, in order)."""
    emitted, asked = [], []
    generator = showing_cells(n_rows, n_cols)
    try:
        cell = next(generator)
        while True:
            asked.append(cell)
            if cell in shown:
                emitted.append(cell)
            cell = generator.send(cell in shown)
    except StopIteration:
        return emitted, asked


def scan(n_rows: int, n_cols: int, shown: set[tuple[int, int]]) -> tuple[list[tuple[int, int]], int]:
    """(cells emitted, how many cells were asked)."""
    emitted, asked = scan_asking(n_rows, n_cols, shown)
    return emitted, len(asked)


def block(rows: range, cols: range) -> set[tuple[int, int]]:
    return {(r, c) for r in rows for c in cols}


def test_a_visible_rectangle_is_emitted_row_by_row() -> None:
    shown = block(range(0, 3), range(0, 4))
    emitted, asked = scan(1000, 1024, shown)
    assert emitted == sorted(shown)
    # each row stops at its first hidden cell; the row after the last stops after CALC_GIVE_UP misses
    assert asked == 3 * 5 + CALC_GIVE_UP


def test_a_scrolled_sheet_starts_at_its_first_showing_cell() -> None:
    shown = block(range(40, 42), range(7, 9))
    emitted, _ = scan(1000, 1024, shown)
    assert emitted == [(40, 7), (40, 8), (41, 7), (41, 8)]


def test_rows_start_at_the_first_showing_column_and_end_at_a_gap() -> None:
    # a frozen first column beside a scrolled view: the gap ends each row
    shown = block(range(0, 2), range(0, 1)) | block(range(0, 2), range(5, 8))
    emitted, _ = scan(100, 100, shown)
    assert emitted == [(0, 0), (1, 0)]


def test_a_sheet_with_nothing_showing_gives_up() -> None:
    emitted, asked = scan(10_000, 10_000, set())
    assert emitted == [] and asked == CALC_GIVE_UP * CALC_GIVE_UP


@pytest.mark.parametrize("corners", [(0, 0, 24, 11), (40, 7, 41, 8), (3, 0, 30, 15), (0, 120, 20, 140)])
def test_a_walk_asks_ahead_for_exactly_what_the_scan_of_a_showing_block_asks(corners: tuple[int, int, int, int]) -> None:
    first_row, first_col, last_row, last_col = corners
    shown = block(range(first_row, last_row + 1), range(first_col, last_col + 1))
    _, asked = scan_asking(1_048_576, 16_384, shown)
    assert cells_asked(1_048_576, 16_384, corners, limit=50_000) == asked


def test_asking_ahead_stops_at_its_limit() -> None:
    # scrolled far down: the scan would ask CALC_GIVE_UP cells in each of the rows above
    assert cells_asked(1_048_576, 16_384, (5_000, 0, 5_020, 10), limit=20_000) == []
    assert len(cells_asked(100, 8, (0, 0, 99, 7), limit=20_000)) == 100 * 8


def test_element_names_and_text() -> None:
    assert tag("push button") == "push-button" and tag("  ") == "unknown"
    assert clean_text("a\ufffcb\ufffd\x07c") == "abc"


def test_attribute_sets_and_actions_keep_only_xml_names() -> None:
    attrs: dict[str, str] = {}
    add_pairs(attrs, "attr", [("toolkit", "gtk"), ("9bad", "x"), ("with space", "y")])
    add_action(attrs, "click", "Clicks the button", "<Alt>f")
    add_action(attrs, "1st", "dropped", "")
    assert attrs == {qname("attr", "toolkit"): "gtk", qname("act", "click_desc"): "Clicks the button",
                     qname("act", "click_kb"): "<Alt>f"}
