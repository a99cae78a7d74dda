"""An environment in a Docker container: the guest server's client, whose faults name the limit
the container hit (:mod:`.guard`) rather than the connection error that followed it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.environments.http import HttpEnvironment
from pytest_spider2v.providers.docker.guard import LimitGuard


@dataclass
class DockerEnvironment(HttpEnvironment):
    """An environment in a Docker container, whose guest faults name the limit the container hit.

    ``host`` is where the guest ports are reached: 127.0.0.1 for published ports, the container's
    own address on an isolated network (which cannot publish ports).
    """

    host: str = field(default="127.0.0.1", kw_only=True)
    guard: LimitGuard = field(kw_only=True)

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        try:
            return f"{scheme}://{self.host}:{self.ports[guest_port]}"
        except KeyError:
            raise EnvironmentFault(f"{self.name}: guest port {guest_port} is not published") from None

    def _request(self, method: str, path: str, *, timeout: float | None = None, **kw: Any) -> httpx.Response:
        # Checked before, too: after a fork bomb the guest may hang rather than fail.
        self._check_limits()
        try:
            response = super()._request(method, path, timeout=timeout, **kw)
        except EnvironmentFault as exc:
            self._check_limits(inspect=True, cause=exc)
            raise
        self._check_limits()
        return response

    def _check_limits(self, *, inspect: bool = False, cause: Exception | None = None) -> None:
        breach = self.guard.breach(inspect=inspect)
        if breach is not None:
            raise EnvironmentFault(f"{self.name}: {breach}") from cause
