"""Tokens and cost as every view writes them (the terminal summary, the HTML report, a task's
record in it, a comparison of runs): ``2,034`` tokens, ``$0.0225``; ``-`` where nothing was counted.
One spelling, so a figure reads the same wherever a user meets it."""

from __future__ import annotations

#: what a view shows for tokens or a cost that nothing counted
NONE = "-"


def tokens_text(tokens: float | None) -> str:
    """Tokens with thousands separators, whole (a mean per success is rounded): ``2,034``."""
    return NONE if tokens is None else f"{tokens:,.0f}"


def cost_text(cost: float | None) -> str:
    """A cost in dollars to a hundredth of a cent: ``$0.0225``."""
    return NONE if cost is None else f"${cost:.4f}"
