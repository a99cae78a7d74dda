"""Cost of a model call, from the price table in ``pricing.yaml`` (data, so prices can be kept
current without touching code).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

TABLE = Path(__file__).with_name("pricing.yaml")
Price = tuple[float, float]  #: USD per million prompt tokens, per million completion tokens


@cache
def price_table() -> dict[str, Price]:
    raw = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    return {str(prefix): (float(p), float(c)) for prefix, (p, c) in raw.items()}


def price_of(model: str) -> Price | None:
    """The price of ``model`` by its longest listed prefix; None for an unlisted model."""
    name = model.lower().split("/")[-1]  # "openai/gpt-4o" as some compatible servers name it
    matches = [prefix for prefix in price_table() if name.startswith(prefix)]
    return price_table()[max(matches, key=len)] if matches else None


def parse_price(text: str) -> Price:
    """``"2.5,10"`` -> (2.5, 10.0): a price given as an option."""
    prompt, completion = (float(part) for part in text.split(","))
    return prompt, completion


def cost_usd(price: Price | None, prompt_tokens: int, completion_tokens: int) -> float | None:
    """USD for one call, or None when the price is unknown (rather than a misleading 0)."""
    if price is None:
        return None
    return round((prompt_tokens * price[0] + completion_tokens * price[1]) / 1e6, 8)
