"""The X display: screenshots with the pointer drawn, screen size, and desktop liveness.

Each call opens its own X connection: the server is threaded and python-xlib connections
must not be shared between threads.
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image, ImageDraw, ImageGrab
from Xlib import X, display
from Xlib.error import DisplayError

DISPLAY = os.environ.get("DISPLAY", ":1")


@contextmanager
def x_display() -> Iterator[display.Display]:
    d = display.Display(DISPLAY)
    try:
        yield d
    finally:
        d.close()


def screen_size() -> tuple[int, int]:
    with x_display() as d:
        screen = d.screen()
        return screen.width_in_pixels, screen.height_in_pixels


def desktop_problem() -> str | None:
    """Why the X side of the desktop is not usable yet (no display, no window manager)."""
    try:
        with x_display() as d:
            root = d.screen().root
            atom = d.intern_atom("_NET_SUPPORTING_WM_CHECK", only_if_exists=True)
            prop = root.get_full_property(atom, X.AnyPropertyType) if atom else None
            if not prop or not len(prop.value):
                return "window manager is not running"
    except (DisplayError, OSError) as exc:
        return f"X display {DISPLAY} does not answer: {exc}"
    return None


def _cursor(d: display.Display) -> tuple[Image.Image, int, int] | None:
    """Current cursor image and where to paste it, via XFixes (None if unsupported)."""
    if not d.has_extension("XFIXES"):
        return None
    d.xfixes_query_version()
    reply = d.xfixes_get_cursor_image(d.screen().root)
    if not reply.width or not reply.height:
        return None
    raw = struct.pack(f"<{len(reply.cursor_image)}I", *(p & 0xFFFFFFFF for p in reply.cursor_image))
    image = Image.frombytes("RGBA", (reply.width, reply.height), raw, "raw", "BGRa")
    return image, reply.x - reply.xhot, reply.y - reply.yhot


def _arrow(x: int, y: int) -> tuple[Image.Image, int, int]:
    """A plain arrow pointer, for X servers without XFixes."""
    image = Image.new("RGBA", (12, 19), (0, 0, 0, 0))
    ImageDraw.Draw(image).polygon([(0, 0), (0, 16), (4, 12), (7, 18), (9, 17), (6, 11), (11, 11)],
                                  fill=(255, 255, 255, 255), outline=(0, 0, 0, 255))
    return image, x, y


def frame() -> Image.Image:
    """The screen as it is now, without the pointer (for telling whether it changes)."""
    return ImageGrab.grab(xdisplay=DISPLAY)


def screenshot_png() -> bytes:
    """The full screen with the pointer drawn, as the original server's screenshots were."""
    shot = ImageGrab.grab(xdisplay=DISPLAY)
    with x_display() as d:
        cursor = _cursor(d)
        if cursor is None:
            pointer = d.screen().root.query_pointer()
            cursor = _arrow(pointer.root_x, pointer.root_y)
    image, x, y = cursor
    shot.paste(image, (x, y), image)
    buffer = io.BytesIO()
    shot.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
