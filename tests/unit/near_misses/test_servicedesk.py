"""Near misses of Request Tracker tickets, each caught by ``rt_tickets_match``."""

from __future__ import annotations

from pathlib import Path

from tests.support.near_misses import assert_all_caught, near_misses_of


def test_ticket_fields_and_counts(tmp_path: Path) -> None:
    tickets = [{"id": 1, "Subject": "Printer jam", "Status": "resolved", "CC": ["a@x.org"]},
               {"id": 2, "Subject": "VPN down", "Status": "open", "CC": []}]
    rules = {"tickets": [{"Subject": "printer jam", "Status": "resolved"}, {"Subject": {"contains": "VPN"}}]}
    found = near_misses_of("rt_tickets_match", tickets, rules, workdir=tmp_path)
    assert_all_caught(found, 5)
