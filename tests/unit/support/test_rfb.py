"""The test suite's RFB client (``tests/support/rfb.py``) against a scripted RFB server over a
WebSocket, which sends its bytes in awkward pieces as websockify may."""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterator

import pytest
from websockets.sync.server import ServerConnection, serve
from websockets.typing import Subprotocol

from tests.support.rfb import RETURN, RFBError, rfb_session, websocket_url

WIDTH, HEIGHT = 4, 3
#: the desktop the server shows: each pixel's colour from its position (BGRX bytes)
PIXELS = bytes(b for y in range(HEIGHT) for x in range(WIDTH) for b in (10 * x, 20 * y, 200, 0))


class ScriptedServer:
    """An RFB 3.8 server with no security, recording what the client sends after ServerInit."""

    def __init__(self, security: bytes = b"\x01\x01") -> None:
        self.security = security
        self.received: list[tuple] = []
        self._server = serve(self._session, "127.0.0.1", 0, subprotocols=[Subprotocol("binary")], compression=None)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.socket.getsockname()[1]}/vnc.html?autoconnect=1"

    def close(self) -> None:
        self._server.shutdown()

    def _session(self, socket: ServerConnection) -> None:
        buffer = bytearray()

        def read(count: int) -> bytes:
            while len(buffer) < count:
                buffer.extend(socket.recv())
            data = bytes(buffer[:count])
            del buffer[:count]
            return data

        socket.send(b"RFB 003.008\n")
        assert read(12) == b"RFB 003.008\n"
        socket.send(self.security)
        if self.security[0] == 0:
            return
        assert read(1) == b"\x01"
        socket.send(struct.pack(">I", 0))
        assert read(1) == b"\x01"  # shared
        name = b"spider2v desktop"
        init = struct.pack(">HH", WIDTH, HEIGHT) + bytes(16) + struct.pack(">I", len(name)) + name
        for start in range(0, len(init), 5):  # in pieces
            socket.send(init[start:start + 5])
        while True:
            try:
                (kind,) = read(1)
            except Exception:
                return
            if kind == 0:
                self.received.append(("pixel format", read(19)[3:]))
            elif kind == 2:
                (count,) = struct.unpack(">xH", read(3))
                self.received.append(("encodings", struct.unpack(f">{count}i", read(4 * count))))
            elif kind == 3:
                self.received.append(("update request", struct.unpack(">BHHHH", read(9))))
                socket.send(b"\x02")  # a bell first
                socket.send(b"\x03\x00\x00\x00" + struct.pack(">I", 4) + b"clip")  # then cut text
                top, bottom = PIXELS[:WIDTH * 4], PIXELS[WIDTH * 4:]
                update = (struct.pack(">BxH", 0, 2) + struct.pack(">HHHHi", 0, 0, WIDTH, 1, 0) + top
                          + struct.pack(">HHHHi", 0, 1, WIDTH, HEIGHT - 1, 0) + bottom)
                socket.send(update[:7])
                socket.send(update[7:])
            elif kind == 4:
                self.received.append(("key",) + struct.unpack(">BxxI", read(7)))
            elif kind == 5:
                self.received.append(("pointer",) + struct.unpack(">BHH", read(5)))


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = ScriptedServer()
    yield scripted
    scripted.close()


def test_the_live_views_page_leads_to_its_websocket() -> None:
    assert websocket_url("http://127.0.0.1:49153/vnc.html?autoconnect=1&view_only=1") == "ws://127.0.0.1:49153/websockify"


def test_a_frame_of_the_desktop_is_received_whole(server: ScriptedServer) -> None:
    with rfb_session(server.url, timeout=5) as client:
        assert (client.width, client.height, client.name) == (WIDTH, HEIGHT, "spider2v desktop")
        frame = client.frame()
    assert frame.pixels == PIXELS and frame.colours() == WIDTH * HEIGHT
    assert frame.image().getpixel((3, 2)) == (200, 40, 30)
    assert server.received[:3] == [
        ("pixel format", bytes([32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0])),
        ("encodings", (0,)), ("update request", (0, 0, 0, WIDTH, HEIGHT))]


def test_typing_and_clicking_send_what_a_browser_would(server: ScriptedServer) -> None:
    with rfb_session(server.url, timeout=5) as client:
        client.type("Hi\n", pause=0)
        client.click(2, 1)
        client.frame()  # a round trip: everything before it has arrived
    keys = [event[1:] for event in server.received if event[0] == "key"]
    assert keys == [(1, ord("H")), (0, ord("H")), (1, ord("i")), (0, ord("i")), (1, RETURN), (0, RETURN)]
    pointer = [event[1:] for event in server.received if event[0] == "pointer"]
    assert pointer == [(0, 2, 1), (1, 2, 1), (0, 2, 1)]


def test_a_server_that_wants_a_password_or_refuses_says_so() -> None:
    for security, message in ((b"\x01\x02", r"wants authentication \(security types \[2\]\)"),
                              (b"\x00" + struct.pack(">I", 4) + b"full", "refused the connection: full")):
        scripted = ScriptedServer(security)
        try:
            with pytest.raises(RFBError, match=message):
                with rfb_session(scripted.url, timeout=5):
                    pass
        finally:
            scripted.close()
