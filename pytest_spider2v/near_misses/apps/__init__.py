"""Near-miss makers of the metrics written for one application's image."""

from pytest_spider2v.near_misses.apps import servicedesk, snowflake

__all__ = ["servicedesk", "snowflake"]
