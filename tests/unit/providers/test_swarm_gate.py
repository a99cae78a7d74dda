"""The guest gate and the host's tunnels through it, on loopback sockets: a connection without the
environment's secret is refused and logged, one through a tunnel holding it is served, every
protocol passes (the gate knows none), and a wrong secret or a dead gate ends in a closed
connection, never a hang."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from pytest_spider2v.guest.gate import Gate
from pytest_spider2v.providers.swarm.provider import FIRST_GATE_PORT, gate_routes
from pytest_spider2v.providers.swarm.tunnel import Tunnels

SECRET = b"s3cret-for-this-environment"


class Echo(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def gate(caplog: pytest.LogCaptureFixture) -> Iterator[tuple[int, int]]:
    """(gate port, guest port): an HTTP server on the guest port, and a gate before it."""
    guest = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=guest.serve_forever, daemon=True).start()
    guest_port, gate_port = guest.server_address[1], free_port()
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    asyncio.run_coroutine_threadsafe(Gate(SECRET, {gate_port: int(guest_port)}).serve(), loop)
    caplog.set_level(logging.INFO, logger="spider2v.gate")
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", gate_port), timeout=1).close()
            break
        except OSError:
            threading.Event().wait(0.02)
    yield gate_port, int(guest_port)
    asyncio.run_coroutine_threadsafe(_cancel_all(), loop).result()  # the server and the pipes it carries
    loop.call_soon_threadsafe(loop.stop)
    guest.shutdown()


async def _cancel_all() -> None:
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_a_request_without_the_secret_is_refused_and_logged(gate: tuple[int, int],
                                                            caplog: pytest.LogCaptureFixture) -> None:
    with socket.create_connection(("127.0.0.1", gate[0]), timeout=5) as raw:
        raw.sendall(b'POST /execute HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}')
        reply = b""
        while chunk := raw.recv(4096):
            reply += chunk
    assert reply.startswith(b"SPIDER2V-GATE/1 ") and b"HTTP/1.1 403 Forbidden" in reply
    assert "refused a connection from ('127.0.0.1'" in caplog.text and f"guest port {gate[1]}" in caplog.text


def test_a_tunnel_with_the_secret_is_served_and_carries_every_byte(gate: tuple[int, int]) -> None:
    tunnels = Tunnels()
    try:
        local = tunnels.open("env", "127.0.0.1", gate[0], SECRET)
        payload = bytes(range(256)) * 4096  # 1 MiB, every byte value
        with httpx.Client(base_url=f"http://127.0.0.1:{local}") as client:
            for _ in range(3):  # one connection after another, each proving itself
                assert client.post("/execute", content=payload).content == payload
    finally:
        tunnels.close()


def test_a_tunnel_with_another_secret_is_refused(gate: tuple[int, int], caplog: pytest.LogCaptureFixture) -> None:
    tunnels = Tunnels()
    try:
        local = tunnels.open("env", "127.0.0.1", gate[0], b"another environment's")
        reply = httpx.post(f"http://127.0.0.1:{local}/execute", json={"command": "id"}, timeout=10)
        assert reply.status_code == 403
        assert "no valid secret" in caplog.text
    finally:
        tunnels.close()


def test_a_tunnel_to_a_gate_that_is_gone_closes_at_once() -> None:
    tunnels = Tunnels()
    try:
        local = tunnels.open("env", "127.0.0.1", free_port(), SECRET)
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{local}/health", timeout=10)
        tunnels.close_for("env")
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{local}/health", timeout=10)
    finally:
        tunnels.close()


def test_each_guest_port_gets_a_gate_port_of_its_own() -> None:
    assert gate_routes([5000, 9222, 8080]) == {FIRST_GATE_PORT: 5000, FIRST_GATE_PORT + 1: 9222,
                                               FIRST_GATE_PORT + 2: 8080}
