"""The runner's screen-settling rule: what counts as the screen still changing."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from pytest_spider2v.runner import SETTLED_TOLERANCE, changed_fraction


def png(draw=None, size=(1920, 1080), colour=(200, 200, 200)) -> bytes:
    image = Image.new("RGB", size, colour)
    if draw:
        draw(ImageDraw.Draw(image))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_a_blinking_caret_is_not_a_change() -> None:
    caret = png(lambda d: d.rectangle((100, 100, 101, 118), fill=(0, 0, 0)))
    assert changed_fraction(png(), caret) <= SETTLED_TOLERANCE


def test_a_window_painting_its_content_is_a_change() -> None:
    painted = png(lambda d: d.rectangle((0, 0, 1920, 300), fill=(255, 255, 255)))
    assert changed_fraction(png(), painted) > 0.25


def test_identical_and_resized_screens() -> None:
    assert changed_fraction(png(), png()) == 0.0
    assert changed_fraction(png(), png(size=(1280, 720))) == 1.0
