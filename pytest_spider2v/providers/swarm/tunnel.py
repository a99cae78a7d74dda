"""The host's side of the guest gate (:mod:`pytest_spider2v.guest.gate`): local ports that lead
through an environment's gate on a cluster node.

For each guest port of a Swarm environment the controller listens on ``127.0.0.1`` at a port of
its own; every connection made there is carried to the gate the node published, answers the
gate's challenge with the environment's secret, and from then on is a plain pipe. So the harness
talks to a desktop on a cluster exactly as to a local one, at ``127.0.0.1``: the guest server
over HTTP, Playwright over Chromium's DevTools WebSocket, getters to PostgreSQL. The secret stays
in this process: it is in no URL, record or report.

One event loop in a daemon thread carries all of a provider's tunnels.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

log = logging.getLogger(__name__)

#: The gate's greeting, and how long it may take to come.
GREETING = b"SPIDER2V-GATE/1 "
GREETING_TIMEOUT = 10.0
CHUNK = 1 << 16
T = TypeVar("T")


def answer(secret: bytes, challenge: bytes) -> bytes:
    """The gate's expected answer to ``challenge`` (the same HMAC the gate computes)."""
    return hmac.new(secret, challenge, hashlib.sha256).hexdigest().encode()


async def handshake(host: str, port: int, secret: bytes) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the gate at ``host:port`` that has passed it; OSError when it cannot."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        line = await asyncio.wait_for(reader.readline(), GREETING_TIMEOUT)
    except (asyncio.TimeoutError, ConnectionError) as exc:
        writer.close()
        raise OSError(f"no gate greeting from {host}:{port}") from exc
    if not line.startswith(GREETING):
        writer.close()
        raise OSError(f"{host}:{port} is not a spider2v gate")
    writer.write(answer(secret, line[len(GREETING):].strip()) + b"\r\n")
    await writer.drain()
    return reader, writer


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        writer.close()


class Tunnels:
    """Local ports leading through gates; :meth:`open` one per guest port, :meth:`close` all."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="spider2v-tunnels", daemon=True)
        self._thread.start()
        self._servers: dict[str, list[asyncio.Server]] = {}

    def open(self, name: str, host: str, port: int, secret: bytes) -> int:
        """A port on ``127.0.0.1`` whose connections reach the gate at ``host:port``; the tunnel
        belongs to environment ``name``."""
        server = self._run(asyncio.start_server(lambda r, w: self._carry(r, w, host, port, secret), "127.0.0.1", 0))
        self._servers.setdefault(name, []).append(server)
        return int(server.sockets[0].getsockname()[1])

    def close_for(self, name: str) -> None:
        """Stop listening for environment ``name`` (connections still open end with their peer)."""
        for server in self._servers.pop(name, []):
            self._loop.call_soon_threadsafe(server.close)

    def close(self) -> None:
        """Stop listening, end the connections still carried, and stop the loop."""
        if self._loop.is_closed():
            return
        self._run(self._shutdown())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()

    async def _shutdown(self) -> None:
        for server in [s for servers in self._servers.values() for s in servers]:
            server.close()
        self._servers.clear()
        carried = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in carried:
            task.cancel()
        await asyncio.gather(*carried, return_exceptions=True)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, port: int,
                     secret: bytes) -> None:
        try:
            remote = await handshake(host, port, secret)
        except OSError as exc:  # the node is gone or the service moved: the harness sees a closed connection
            log.debug("tunnel to %s:%d: %s", host, port, exc)
            writer.close()
            return
        try:
            await asyncio.gather(_pipe(reader, remote[1]), _pipe(remote[0], writer))
        finally:
            writer.close()
            remote[1].close()
