"""The disk limit of a container: what it may write over its image.

Docker limits a container's writable layer only on an XFS host mounted with project quotas (the
kernel here has no XFS quotas) or on drivers whose ``docker diff`` walks whole images, so the
limit is kept by watching. Where the layer is on this machine the watch costs next to nothing:
the free space of the file system holding it is read four times a second, and only when it has
fallen by :data:`WALK_AFTER` since the last look, or every :data:`WALK_EVERY` seconds, is the
layer itself measured (:func:`~.overlay.layer_usage`, milliseconds). Elsewhere (a cluster node)
the engine measures it, every :data:`REMOTE_EVERY` seconds. A container over its limit is killed
at once: no write of its own, and no process it left, can go on filling the host. How far over
the limit it can get is what it writes in one look's time (at most about a second of writing).
"""

from __future__ import annotations

import os
import threading
import time

from docker.errors import DockerException

from pytest_spider2v.environments.limits import format_memory
from pytest_spider2v.providers.docker.overlay import layer_usage
from pytest_spider2v.providers.docker.witness import EngineWitness
from pytest_spider2v.signals.threads import start_background

LOOK_EVERY = 0.25
WALK_AFTER = 32 << 20
WALK_EVERY = 5.0
REMOTE_EVERY = 5.0


class DiskWatch:
    """Kills the witnessed container once its writable layer (on this machine, else as the engine
    measures it) exceeds ``limit`` bytes; :attr:`breach` then says so."""

    def __init__(self, witness: EngineWitness, limit: int) -> None:
        self.witness = witness
        self.container = witness.container
        self.api = witness.api
        self.limit = limit
        self.upper = witness.layer
        self.breach: str | None = None
        self._stop = threading.Event()
        start_background(self._watch, name=f"spider2v-disk-{witness.container.name}")

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        last_free, last_walk = self._free(), 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if self.upper is None:
                due = now - last_walk >= REMOTE_EVERY
            else:
                free = self._free()
                due = last_free - free >= WALK_AFTER or now - last_walk >= WALK_EVERY
            if due:
                used = self._used()
                last_walk, last_free = now, self._free()
                if used is not None and used > self.limit:
                    self._kill(used)
                    return
            self._stop.wait(LOOK_EVERY if self.upper is not None else REMOTE_EVERY)

    def _used(self) -> int | None:
        if self.upper is not None:
            return layer_usage(self.upper)
        try:
            listed = self.api.containers(all=True, size=True, filters={"id": str(self.container.id)})
        except DockerException:
            return None
        return int(listed[0].get("SizeRw") or 0) if listed else None  # none listed: gone, nothing to watch

    def _free(self) -> int:
        if self.upper is None:
            return 0
        try:
            info = os.statvfs(self.upper)
        except OSError:
            return 0
        return info.f_bavail * info.f_frsize

    def _kill(self, used: int) -> None:
        self.breach = (f"the environment reached its disk limit of {format_memory(self.limit)} "
                       f"({used >> 20} MiB written over its image)")
        self.witness.took("kill")  # the harness's own: not an outside cause
        try:
            self.container.kill()
        except DockerException:
            pass  # already gone
