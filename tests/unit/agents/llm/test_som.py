"""Set-of-Marks drawing, index resolution and screenshot scaling (reference §6.4, §6.6)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from pytest_spider2v.agents.llm.observation import Node
from pytest_spider2v.agents.llm.som import draw_marks, resolve_indices, scale_png
from pytest_spider2v.run.actions import ActionError

RED = (255, 0, 0)


def screenshot() -> bytes:
    """A 400x300 grey desktop with two 'buttons' that have content and one blank area."""
    image = Image.new("RGB", (400, 300), (200, 200, 200))
    draw = ImageDraw.Draw(image)
    draw.rectangle([20, 20, 99, 59], fill=(30, 90, 200))
    draw.text((30, 30), "Save", fill="white")
    draw.rectangle([150, 20, 229, 59], fill=(30, 160, 60))
    draw.text((160, 30), "Run", fill="white")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


SAVE = Node("push-button", "Save", "", 20, 20, 80, 40)
BLANK = Node("label", "Blank", "", 300, 200, 50, 50)  # plain grey: a single colour
RUN = Node("push-button", "Run", "", 150, 20, 80, 40)
OUTSIDE = Node("push-button", "Far", "", 900, 900, 40, 40)
EDGE = Node("push-button", "Edge", "", 380, 280, 60, 60)  # partly outside, over plain grey


def open_png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_draw_marks_numbers_only_widgets_with_detail() -> None:
    png, marks, kept = draw_marks(screenshot(), [SAVE, BLANK, RUN, OUTSIDE, EDGE])
    assert marks == [(20, 20, 80, 40), (150, 20, 80, 40)]
    assert kept == [SAVE, RUN]
    image = open_png(png)
    assert image.size == (400, 300)
    assert image.getpixel((60, 20)) == RED  # top edge of the Save box
    assert image.getpixel((100, 40)) == RED  # right edge at x + w, as the original drew it
    assert image.getpixel((325, 225)) == (200, 200, 200)  # blank area left untouched
    # the index label: white on black, its bottom-left at the box's bottom-left corner
    label = image.crop((20, 45, 40, 60))
    colours = {colour for _, colour in label.getcolors()}
    assert (0, 0, 0) in colours and any(min(c) > 200 for c in colours)


def test_draw_marks_with_no_nodes_returns_the_same_picture() -> None:
    original = screenshot()
    png, marks, kept = draw_marks(original, [])
    assert (marks, kept) == ([], [])
    assert open_png(png).tobytes() == open_png(original).tobytes()


def test_resolve_indices_prepends_centres() -> None:
    marks = [(20, 20, 80, 40), (150, 20, 81, 41)]
    code = "pyautogui.click(*index_2)\npyautogui.moveTo(*index_1)\npyautogui.click(*index_2)"
    resolved = resolve_indices(code, marks)
    assert resolved == "index_2 = (190, 40)\nindex_1 = (60, 40)\n" + code
    namespace: dict = {}
    exec("\n".join(resolved.splitlines()[:2]), namespace)  # the prelude is plain Python
    assert namespace["index_2"] == (190, 40)


def test_resolve_indices_leaves_code_without_indices_alone() -> None:
    assert resolve_indices("pyautogui.press('enter')", []) == "pyautogui.press('enter')"
    assert resolve_indices("my_index_1 = 3", [(0, 0, 2, 2)]) == "my_index_1 = 3"


def test_resolve_indices_rejects_unknown_marks() -> None:
    with pytest.raises(ActionError, match=r"index_3 is not a mark on the screenshot; valid indices are 1\.\.2"):
        resolve_indices("pyautogui.click(*index_3)", [(0, 0, 2, 2), (5, 5, 2, 2)])
    with pytest.raises(ActionError, match="index_0"):
        resolve_indices("pyautogui.click(*index_0)", [(0, 0, 2, 2)])
    with pytest.raises(ActionError, match="it has no marks"):
        resolve_indices("pyautogui.click(*index_1)", [])


def test_scale_png_shrinks_wide_images_and_reports_the_factor() -> None:
    image = Image.new("RGB", (1920, 1080), (10, 20, 30))
    out = io.BytesIO()
    image.save(out, format="PNG")
    png, factor = scale_png(out.getvalue(), 1280)
    assert factor == pytest.approx(2 / 3)
    assert Image.open(io.BytesIO(png)).size == (1280, 720)


def test_scale_png_keeps_narrow_images_and_refuses_bad_widths() -> None:
    original = screenshot()
    assert scale_png(original, 400) == (original, 1.0)
    with pytest.raises(ValueError, match="max_width must be positive"):
        scale_png(original, 0)
