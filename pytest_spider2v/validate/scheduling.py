"""The xdist scheduler of a validating run (``--validate`` under xdist's default ``--dist load``),
imported by :mod:`.plugin` only for such a run.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling


class TaskScheduling(LoadScopeScheduling):
    """xdist's load balancing by task: the checks of one task run in one worker, in order, so its
    near-miss check finds the reference run's fetched results (a node id's task is what comes
    before ``[validate-``; grouping by file would put a whole DABench questions file on one)."""

    def _split_scope(self, nodeid: str) -> str:
        return nodeid.split("[validate-", 1)[0]
