"""When the screen has stopped changing: compared in the guest, frame by frame, so that waiting
for a settled desktop costs no PNG encoding and no transfer, and polls ten times a second.

Only Pillow: the server imports it, and the host's unit tests do too.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PIL import Image, ImageChops

#: A pixel whose grey level moved by more than this has visibly changed.
VISIBLE = 16
#: Share of pixels that may change between two frames of a settled screen (a caret blinking).
TOLERANCE = 0.001


def changed_fraction(before: Image.Image, after: Image.Image) -> float:
    """Share of pixels that differ visibly between two frames (1.0 if their sizes differ)."""
    a, b = before.convert("L"), after.convert("L")
    if a.size != b.size:
        return 1.0
    visible = ImageChops.difference(a, b).point(lambda v: 255 if v > VISIBLE else 0)
    return visible.histogram()[255] / (a.width * a.height)


def wait_until_still(grab: Callable[[], Image.Image], *, quiet: float, timeout: float,
                     tolerance: float = TOLERANCE, interval: float = 0.1) -> tuple[bool, float]:
    """Grab frames until none has changed (beyond ``tolerance``) for ``quiet`` seconds; returns
    whether that happened before ``timeout`` and the seconds waited."""
    started = time.monotonic()
    deadline = started + timeout
    frame = grab()
    since = time.monotonic()
    while time.monotonic() - since < quiet:
        if time.monotonic() >= deadline:
            return False, time.monotonic() - started
        time.sleep(interval)
        latest = grab()
        if changed_fraction(frame, latest) > tolerance:
            since = time.monotonic()
        frame = latest
    return True, time.monotonic() - started
