"""Registers the toy provider, as an installed package's entry point would (see toy_provider.py)."""

import toy_provider  # noqa: F401
