"""The guest's screen-settling rule: what counts as the screen still changing, and when waiting
for a settled screen ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PIL import Image, ImageDraw

from pytest_spider2v.guest.server import stillness
from pytest_spider2v.guest.server.stillness import TOLERANCE, changed_fraction, wait_until_still


def frame(draw: Callable[[ImageDraw.ImageDraw], None] | None = None, size=(1920, 1080)) -> Image.Image:
    image = Image.new("RGB", size, (200, 200, 200))
    if draw:
        draw(ImageDraw.Draw(image))
    return image


def test_a_blinking_caret_is_not_a_change() -> None:
    caret = frame(lambda d: d.rectangle((100, 100, 101, 118), fill=(0, 0, 0)))
    assert changed_fraction(frame(), caret) <= TOLERANCE


def test_a_window_painting_its_content_is_a_change() -> None:
    painted = frame(lambda d: d.rectangle((0, 0, 1920, 300), fill=(255, 255, 255)))
    assert changed_fraction(frame(), painted) > 0.25


def test_a_resized_screen_is_all_change() -> None:
    assert changed_fraction(frame(), frame(size=(1280, 720))) == 1.0


class Clock:
    """time.monotonic and time.sleep of a test: sleeping moves the clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(stillness.time, "monotonic", fake.monotonic)
    monkeypatch.setattr(stillness.time, "sleep", fake.sleep)
    return fake


def frames(changes_until: float, clock: Clock) -> Callable[[], Image.Image]:
    """A screen that repaints every grab until ``changes_until`` seconds, then stays still."""
    painted: Iterator[int] = iter(range(10_000))

    def grab() -> Image.Image:
        if clock.now < changes_until:
            shade = next(painted) % 2 * 255
            return frame(lambda d: d.rectangle((0, 0, 1920, 540), fill=(shade, shade, shade)))
        return frame()

    return grab


def test_the_wait_ends_a_quiet_second_after_the_last_change(clock: Clock) -> None:
    settled, waited = wait_until_still(frames(2.0, clock), quiet=1.0, timeout=10.0)
    assert settled and 3.0 <= waited <= 3.25


def test_a_screen_that_never_settles_gives_up_at_the_timeout(clock: Clock) -> None:
    settled, waited = wait_until_still(frames(60.0, clock), quiet=1.0, timeout=5.0)
    assert not settled and 5.0 <= waited < 5.2
