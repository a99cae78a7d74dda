"""An environment in a Docker container: the guest server's client, whose faults name the limit
the container hit (:mod:`.guard`) rather than the connection error that followed it, and say when
the environment was broken from inside (a limit, or the guest server gone while the container
runs) rather than from outside (the container stopped).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from docker.errors import DockerException

from pytest_spider2v.environments.base import BrokenFromInside, EnvironmentFault
from pytest_spider2v.environments.http import HttpEnvironment
from pytest_spider2v.providers.docker.guard import LimitGuard
from pytest_spider2v.providers.docker.witness import EngineWitness

#: A guest server that is gone refuses or drops the connection; a slow one times out, which says
#: nothing about who is to blame (a busy host), so a timeout is never "broken from inside".
GUEST_GONE = (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError)


@dataclass
class DockerEnvironment(HttpEnvironment):
    """An environment in a Docker container, whose guest faults name the limit the container hit.

    ``host`` is where the guest ports are reached: 127.0.0.1 for published ports, the container's
    own address on an isolated network (which cannot publish ports).
    """

    host: str = field(default="127.0.0.1", kw_only=True)
    guard: LimitGuard = field(kw_only=True)
    witness: EngineWitness | None = field(default=None, kw_only=True)
    #: how long a container whose guest stopped answering may take to be reported stopped, when
    #: it was stopped from outside (Docker reports the exit a moment after the connections drop)
    stop_settle: float = field(default=3.0, kw_only=True)

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        try:
            return f"{scheme}://{self.host}:{self.ports[guest_port]}"
        except KeyError:
            raise EnvironmentFault(f"{self.name}: guest port {guest_port} is not published") from None

    def agent_starts(self) -> None:
        self.guard.mark()

    def close(self) -> None:
        if self.guard.disk is not None:
            self.guard.disk.stop()
        super().close()

    def _request(self, method: str, path: str, *, timeout: float | None = None, **kw: Any) -> httpx.Response:
        # Checked before, too: after a fork bomb the guest may hang rather than fail.
        self._check_limits()
        try:
            response = super()._request(method, path, timeout=timeout, **kw)
        except EnvironmentFault as exc:
            self._check_limits(inspect=True, cause=exc)
            if isinstance(exc.__cause__, GUEST_GONE) and self._still_running():
                raise BrokenFromInside(f"{self.name}: the guest server stopped answering while its container "
                                       f"runs ({exc})") from exc
            raise
        self._check_limits()
        return response

    def _still_running(self) -> bool:
        """Whether the container still runs once Docker has caught up (:attr:`stop_settle`)."""
        deadline = time.monotonic() + self.stop_settle
        while True:
            try:
                self.guard.container.reload()
            except DockerException:
                return False  # removed: stopped from outside
            if self.guard.container.status != "running":
                return False
            if time.monotonic() >= deadline:
                return True
            time.sleep(0.5)

    def _check_limits(self, *, inspect: bool = False, cause: Exception | None = None) -> None:
        breach = self.guard.breach(inspect=inspect)
        if breach is not None:
            raise BrokenFromInside(f"{self.name}: {breach}") from cause
