"""A minimal RFB (VNC) client over a WebSocket, speaking to the live view's websockify as a
browser's noVNC does: enough for the end-to-end tests to receive the desktop and to type and
click into it the way a person would.

RFB 3.7/3.8 (RFC 6143): the version handshake, security type None, ClientInit (shared) and
ServerInit; then SetPixelFormat (32-bit true colour), SetEncodings (Raw only),
FramebufferUpdateRequest answered by FramebufferUpdate; KeyEvent and PointerEvent. Server
messages the tests do not need (colour maps, bells, cut text) are read and dropped.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

#: X keysyms of the characters :meth:`RFBClient.type` sends that are not their own code point.
KEYSYMS = {"\n": 0xFF0D, "\r": 0xFF0D, "\t": 0xFF09, "\b": 0xFF08}
RETURN, ESCAPE, CONTROL = 0xFF0D, 0xFF1B, 0xFFE3
#: 32 bits a pixel, depth 24, little-endian, true colour, 8 bits a channel: bytes B, G, R, unused.
PIXEL_FORMAT = struct.pack(">BBBBHHHBBB3x", 32, 24, 0, 1, 255, 255, 255, 16, 8, 0)
RAW = 0


class RFBError(RuntimeError):
    """The server refused or said something this client does not understand."""


@dataclass(frozen=True)
class Frame:
    """The desktop as received: ``pixels`` are BGRX rows, top to bottom."""

    width: int
    height: int
    pixels: bytes = field(repr=False)

    def image(self) -> Any:
        from PIL import Image

        return Image.frombytes("RGB", (self.width, self.height), self.pixels, "raw", "BGRX")

    def colours(self) -> int:
        """How many different colours it shows (a blank or broken frame shows one)."""
        return len({self.pixels[i:i + 3] for i in range(0, len(self.pixels), 4)})

    def summary(self) -> str:
        """What a failed wait for a frame reports: its size and how many colours it shows."""
        return f"a {self.width}x{self.height} frame of {self.colours()} colours"


def websocket_url(live_url: str) -> str:
    """The WebSocket a live view's page connects to: its host and port, path ``/websockify``."""
    parts = urlsplit(live_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/websockify"


@contextmanager
def rfb_session(live_url: str, timeout: float = 30.0) -> Iterator[RFBClient]:
    """An RFB session with the live view at ``live_url`` (the page's URL, as announced), past
    its handshake; closed on the way out."""
    with connect(websocket_url(live_url), subprotocols=[Subprotocol("binary")], compression=None, proxy=None,
                 max_size=None, open_timeout=timeout) as socket:
        client = RFBClient(socket, timeout)
        client.handshake()
        yield client


class RFBClient:
    """One RFB session over an open WebSocket (see :func:`rfb_session`)."""

    def __init__(self, socket: ClientConnection, timeout: float) -> None:
        self._socket = socket
        self._timeout = timeout
        self._buffer = bytearray()
        self.width = self.height = 0
        self.name = ""
        self._framebuffer = bytearray()

    # -- the session ------------------------------------------------------------------------
    def handshake(self) -> None:
        version = self._read(12)
        try:
            major, minor = int(version[4:7]), int(version[8:11])
        except ValueError:
            raise RFBError(f"not an RFB server: {version!r}") from None
        if major != 3 or minor < 7:
            raise RFBError(f"unsupported server version {version!r} (3.7 or later is needed)")
        minor = min(minor, 8)
        self._send(f"RFB 003.00{minor}\n".encode())
        (count,) = self._read(1)
        if count == 0:
            raise RFBError(f"the server refused the connection: {self._reason()}")
        offered = list(self._read(count))
        if 1 not in offered:
            raise RFBError(f"the server wants authentication (security types {offered}); a live view has none")
        self._send(b"\x01")
        if minor == 8 and struct.unpack(">I", self._read(4))[0] != 0:
            raise RFBError(f"security handshake failed: {self._reason()}")
        self._send(b"\x01")  # ClientInit: share the desktop with other viewers
        self.width, self.height = struct.unpack(">HH", self._read(4))
        self._read(16)  # the server's pixel format: replaced by ours below
        (length,) = struct.unpack(">I", self._read(4))
        self.name = self._read(length).decode(errors="replace")
        self._framebuffer = bytearray(self.width * self.height * 4)
        self._send(struct.pack(">B3x", 0) + PIXEL_FORMAT)  # SetPixelFormat
        self._send(struct.pack(">BxHi", 2, 1, RAW))  # SetEncodings: Raw

    def frame(self) -> Frame:
        """The whole desktop, as it is now."""
        self._send(struct.pack(">BBHHHH", 3, 0, 0, 0, self.width, self.height))  # not incremental
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if self._message() == 0:
                return Frame(self.width, self.height, bytes(self._framebuffer))
        raise RFBError(f"no framebuffer update within {self._timeout:g} s")

    def key(self, keysym: int, down: bool) -> None:
        self._send(struct.pack(">BBxxI", 4, int(down), keysym))

    def press(self, keysym: int, *held: int) -> None:
        """Press and release ``keysym`` while ``held`` keys (Control, Shift) are down."""
        for key in (*held, keysym):
            self.key(key, True)
        for key in (keysym, *reversed(held)):
            self.key(key, False)

    def type(self, text: str, pause: float = 0.02) -> None:
        """Type ``text`` key by key, as a person would (a newline is Return)."""
        for char in text:
            self.press(KEYSYMS.get(char, ord(char)))
            time.sleep(pause)

    def click(self, x: int, y: int, button: int = 1) -> None:
        mask = 1 << (button - 1)
        self._send(struct.pack(">BBHH", 5, 0, x, y))  # move there first
        self._send(struct.pack(">BBHH", 5, mask, x, y))
        self._send(struct.pack(">BBHH", 5, 0, x, y))

    # -- messages from the server -----------------------------------------------------------
    def _message(self) -> int:
        """Read one server message (applying a framebuffer update); its type."""
        (kind,) = self._read(1)
        if kind == 0:  # FramebufferUpdate
            (rectangles,) = struct.unpack(">xH", self._read(3))
            for _ in range(rectangles):
                x, y, w, h, encoding = struct.unpack(">HHHHi", self._read(12))
                if encoding != RAW:
                    raise RFBError(f"the server sent encoding {encoding}, though asked for Raw only")
                self._paint(x, y, w, h, self._read(w * h * 4))
        elif kind == 1:  # SetColourMapEntries: meaningless in true colour
            _first, count = struct.unpack(">xHH", self._read(5))
            self._read(6 * count)
        elif kind == 2:  # Bell
            pass
        elif kind == 3:  # ServerCutText
            (length,) = struct.unpack(">3xI", self._read(7))
            self._read(length)
        else:
            raise RFBError(f"unknown server message type {kind}")
        return kind

    def _paint(self, x: int, y: int, w: int, h: int, data: bytes) -> None:
        for row in range(h):
            start = ((y + row) * self.width + x) * 4
            self._framebuffer[start:start + w * 4] = data[row * w * 4:(row + 1) * w * 4]

    def _reason(self) -> str:
        (length,) = struct.unpack(">I", self._read(4))
        return self._read(length).decode(errors="replace")

    # -- the WebSocket ----------------------------------------------------------------------
    def _send(self, data: bytes) -> None:
        self._socket.send(data)

    def _read(self, count: int) -> bytes:
        """Exactly ``count`` bytes: websockify forwards the stream in chunks of its own."""
        while len(self._buffer) < count:
            chunk = self._socket.recv(timeout=self._timeout)
            if isinstance(chunk, str):
                raise RFBError("the server sent text: it speaks the base64 subprotocol, not binary")
            self._buffer += chunk
        data = bytes(self._buffer[:count])
        del self._buffer[:count]
        return data
