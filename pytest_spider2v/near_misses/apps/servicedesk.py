"""Near misses of Request Tracker tickets (``rt_tickets_match``): on the ticket that satisfies
each wanted description, each field the description names made to break its rule; one ticket
dropped; one extra ticket where the rules want exactly the described ones."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.metrics.apps.servicedesk import ticket_matches
from pytest_spider2v.near_misses.values import changed, changed_text, rules_of
from pytest_spider2v.registry import NearMiss, near_misses


@near_misses.register("rt_tickets_match")
def tickets(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if not isinstance(result, list) or not all(isinstance(t, dict) for t in result):
        return
    rules = rules_of(expected, options) or {}
    for wanted in rules.get("tickets", []):
        i = next((i for i, ticket in enumerate(result) if not ticket_matches(ticket, wanted)), None)
        if i is None:
            continue
        ticket = result[i]
        for field, rule in wanted.items():
            wrong = {**ticket, field: broken(ticket[field], rule)}
            yield NearMiss("field changed", f"ticket {ticket.get('id', i)}: {field}", [*result[:i], wrong, *result[i + 1:]])
    if result:
        yield NearMiss("ticket dropped", f"ticket {result[-1].get('id', len(result) - 1)}", result[:-1])
        if rules.get("exact", True):
            yield NearMiss("ticket added", "a copy of the last ticket", [*result, dict(result[-1])])


def broken(value: Any, rule: Any) -> Any:
    """``value`` made to break ``rule``: the contained text changed where it appears, the
    forbidden text added, a count off by one, a plain value given another word."""
    if isinstance(rule, dict):
        if "contains" in rule:
            needle = str(rule["contains"])
            pattern = re.compile(re.escape(needle), re.IGNORECASE)
            if isinstance(value, list):
                return [pattern.sub(changed_text(needle), item) if isinstance(item, str) else item for item in value]
            return pattern.sub(changed_text(needle), str(value))
        if "not_contains" in rule:
            return [*value, rule["not_contains"]] if isinstance(value, list) else f"{value} {rule['not_contains']}"
        if "count" in rule and isinstance(value, list):
            return [*value, "near-miss"]
    if isinstance(value, list):
        return [*value, "near-miss"]
    if isinstance(value, str):
        return f"{value} near-miss"
    return changed(value)
