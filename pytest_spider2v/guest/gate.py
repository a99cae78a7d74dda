"""The guest gate: on a cluster, the only door to an environment's ports.

A port published on a cluster node is reachable by every machine on the node's network, and the
guest server behind it executes whatever it is sent. So the Swarm provider publishes none of the
guest's own ports: it publishes this gate's, one per guest port, and the gate lets a connection
through to ``127.0.0.1:<guest port>`` only once the connecting side has proved it holds the secret
made for this environment. Every protocol passes (HTTP, Chromium's DevTools WebSocket, PostgreSQL),
because the proof comes before the protocol's first byte:

1. the gate sends ``SPIDER2V-GATE/1 <challenge>\\r\\n`` (32 random hex digits);
2. the client answers ``<HMAC-SHA256(secret, challenge) in hex>\\r\\n``;
3. a right answer opens the pipe; anything else gets ``HTTP/1.1 403`` (so ``curl`` shows why),
   is logged with the peer's address, and is closed.

The secret itself never crosses the network, and an answer overheard is worth nothing for the next
connection's challenge. The gate runs inside the environment's container, started beside the
image's own command (``python3 gate.py SECRET_FILE GATE_PORT:GUEST_PORT ...``); the provider ships
this file as a Swarm config and the secret as a Swarm secret. Standard library only: it runs on the
image's system Python, whatever the image. The host side of the handshake is
:mod:`pytest_spider2v.providers.swarm.tunnel`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import sys
from pathlib import Path

GREETING = b"SPIDER2V-GATE/1"
#: How long a client has to answer the challenge.
ANSWER_TIMEOUT = 10.0
REFUSAL = b"HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nno spider2v gate secret\n"
CHUNK = 1 << 16

log = logging.getLogger("spider2v.gate")


def answer(secret: bytes, challenge: bytes) -> bytes:
    """The proof for ``challenge``: what the gate expects back, and what the host sends."""
    return hmac.new(secret, challenge, hashlib.sha256).hexdigest().encode()


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until end of stream, then pass the end on (a half close, as HTTP clients use)."""
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        writer.close()


async def splice(a: tuple[asyncio.StreamReader, asyncio.StreamWriter],
                 b: tuple[asyncio.StreamReader, asyncio.StreamWriter]) -> None:
    """Both directions until both have ended; then close both."""
    try:
        await asyncio.gather(pipe(a[0], b[1]), pipe(b[0], a[1]))
    finally:
        for _, writer in (a, b):
            writer.close()


class Gate:
    """Listens on each gate port and lets proven connections through to its guest port."""

    def __init__(self, secret: bytes, routes: dict[int, int]) -> None:
        self.secret = secret
        self.routes = routes

    async def serve(self) -> None:
        servers = [await asyncio.start_server(lambda r, w, port=guest: self._handle(r, w, port), "0.0.0.0", gate)
                   for gate, guest in self.routes.items()]
        log.info("gate open: %s", ", ".join(f"{g}->{p}" for g, p in self.routes.items()))
        await asyncio.gather(*(s.serve_forever() for s in servers))

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int) -> None:
        peer = writer.get_extra_info("peername")
        challenge = secrets.token_hex(16).encode()
        try:
            writer.write(GREETING + b" " + challenge + b"\r\n")
            await writer.drain()
            given = (await asyncio.wait_for(reader.readline(), ANSWER_TIMEOUT)).strip()
        except (asyncio.TimeoutError, ConnectionError, OSError, ValueError):
            given = b""
        if not hmac.compare_digest(given, answer(self.secret, challenge)):
            log.warning("refused a connection from %s to guest port %d: no valid secret", peer, port)
            try:
                writer.write(REFUSAL)
                await writer.drain()
            except (ConnectionError, OSError):
                pass
            writer.close()
            return
        try:
            upstream = await asyncio.open_connection("127.0.0.1", port)
        except OSError as exc:  # the guest's service is not up (yet): the client sees a closed pipe
            log.info("guest port %d: %s", port, exc)
            writer.close()
            return
        await splice((reader, writer), upstream)


def main(argv: list[str]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s gate %(levelname)s %(message)s", stream=sys.stderr)
    secret = Path(argv[0]).read_bytes().strip()
    routes = {int(gate): int(guest) for gate, guest in (route.split(":") for route in argv[1:])}
    asyncio.run(Gate(secret, routes).serve())


if __name__ == "__main__":
    main(sys.argv[1:])
