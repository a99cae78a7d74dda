"""Request Tracker (the ``servicedesk`` image): ``rt_tickets_match``, which checks the tickets
the ``rt_tickets`` getter brought against a task's rules (the final ticket state it wants)."""

from __future__ import annotations

import logging
from typing import Any

from pytest_spider2v.registry import metrics

logger = logging.getLogger(__name__)


def normalize(value: Any) -> Any:
    """Case- and whitespace-insensitive form of a string; other values unchanged."""
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    return value


def field_matches(actual: Any, expected: Any) -> bool:
    """Whether one ticket field satisfies one rule.

    A rule is a plain value (equal, ignoring case and spacing; a list field equals it as a set,
    and a single string stands for a one-element list), ``{"contains": s}`` (the field, or one
    of its elements, contains ``s``), ``{"not_contains": s}``, ``{"in": [...]}`` (one of) or
    ``{"count": n}`` (a list field has n elements).
    """
    if isinstance(expected, dict):
        if "contains" in expected:
            needle = normalize(expected["contains"])
            items = actual if isinstance(actual, list) else [actual]
            return any(isinstance(i, str) and needle in normalize(i) for i in items)
        if "not_contains" in expected:
            return not field_matches(actual, {"contains": expected["not_contains"]})
        if "in" in expected:
            return any(field_matches(actual, option) for option in expected["in"])
        if "count" in expected:
            return isinstance(actual, list) and len(actual) == expected["count"]
        raise ValueError(f"rt_tickets_match: unknown rule {expected!r}")
    if isinstance(actual, list):
        wanted = expected if isinstance(expected, list) else [expected]
        return sorted(map(normalize, map(str, actual))) == sorted(map(normalize, map(str, wanted)))
    if isinstance(actual, int) and not isinstance(actual, bool):
        try:
            return actual == int(expected)
        except (TypeError, ValueError):
            return False
    return normalize(actual) == normalize(expected)


def ticket_matches(ticket: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """The fields of ``ticket`` that break ``expected`` (empty: it matches)."""
    return [field for field, rule in expected.items()
            if field not in ticket or not field_matches(ticket[field], rule)]


def assign(tickets: list[dict[str, Any]], wanted: list[dict[str, Any]]) -> bool:
    """Whether each wanted description can be matched by a different ticket (backtracking)."""
    candidates = [[i for i, t in enumerate(tickets) if not ticket_matches(t, w)] for w in wanted]
    used: set[int] = set()

    def place(k: int) -> bool:
        if k == len(wanted):
            return True
        for i in candidates[k]:
            if i not in used:
                used.add(i)
                if place(k + 1):
                    return True
                used.discard(i)
        return False

    return place(0)


@metrics.register()
def rt_tickets_match(result: list[dict[str, Any]] | None, rules: dict[str, Any]) -> float:
    """1.0 if every description in ``rules["tickets"]`` is matched by its own ticket of the
    result; with ``rules["exact"]`` (default true) the result must also hold no other ticket.
    """
    if result is None:
        logger.info("rt_tickets_match: no result")
        return 0.0
    wanted = list(rules.get("tickets", []))
    if rules.get("exact", True) and len(result) != len(wanted):
        logger.info("rt_tickets_match: %d tickets found, %d expected: %s", len(result), len(wanted),
                    [(t.get("id"), t.get("Subject")) for t in result])
        return 0.0
    if assign(result, wanted):
        return 1.0
    for w in wanted:
        if not any(not ticket_matches(t, w) for t in result):
            near = min(result, key=lambda t: len(ticket_matches(t, w)), default=None)
            logger.info("rt_tickets_match: nothing matches %r; closest %r breaks %s", w, near,
                        ticket_matches(near, w) if near else "-")
            break
    else:
        logger.info("rt_tickets_match: the descriptions cannot each get a ticket of their own")
    return 0.0
