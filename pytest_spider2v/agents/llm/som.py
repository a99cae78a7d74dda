"""Set-of-Marks: numbered boxes on the screenshot, and turning ``index_<k>`` back into coordinates.

In the ``som`` observation space (reference §6.4) the model sees the screenshot with a red box
and a number on every pruned widget, plus the indexed a11y table; it may then write
``pyautogui.click(*index_12)`` instead of guessing pixels. The harness resolves such names by
prepending ``index_12 = (cx, cy)`` to the code, as the original ``parse_code_from_som_string`` did.

Widgets whose screen region is a single colour are not marked: they are invisible in the image
(off-screen, covered or empty), so a mark there would mislead. Only marked widgets get an index
and a row in the indexed table, so the numbers in the image and the table agree.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pytest_spider2v.agents.llm.observation import Node
from pytest_spider2v.run.actions import ActionError

if TYPE_CHECKING:
    from PIL import Image, ImageFont

#: A mark as the original stored it: the widget's box ``(x, y, w, h)`` in screen pixels.
Mark = tuple[int, int, int, int]

FONT_SIZE = 15  # the original's arial.ttf size; DejaVu Sans stands in for Arial here
_INDEX_NAME = re.compile(r"\bindex_(\d+)\b")


def draw_marks(screenshot_png: bytes, nodes: Iterable[Node]) -> tuple[bytes, list[Mark], list[Node]]:
    """Draw the marks; return the new PNG, the marks and the nodes that got one (same order).

    Each box gets a 1-pixel red outline and its running index (from 1) in white on a black box,
    anchored left-bottom at the box's bottom-left corner. Boxes partly outside the image are
    judged on their visible part; boxes wholly outside are skipped. The single-colour test looks
    at the untouched screenshot, not (as the original did) at the image with earlier marks
    already drawn, so a widget never gets marked just because a neighbour's label overlaps it.
    """
    from PIL import Image, ImageDraw  # only model-driven agents draw; the plugin starts without PIL

    screenshot = Image.open(io.BytesIO(screenshot_png)).convert("RGB")
    image = screenshot.copy()
    draw = ImageDraw.Draw(image)
    font = _font()
    marks: list[Mark] = []
    kept: list[Node] = []
    for node in nodes:
        if node.w <= 0 or node.h <= 0 or not _has_detail(screenshot, node):
            continue
        right, bottom = node.x + node.w, node.y + node.h
        draw.rectangle([(node.x, node.y), (right, bottom)], outline="red", width=1)
        label = str(len(marks) + 1)
        draw.rectangle(draw.textbbox((node.x, bottom), label, font=font, anchor="lb"), fill="black")
        draw.text((node.x, bottom), label, font=font, anchor="lb", fill="white")
        marks.append((node.x, node.y, node.w, node.h))
        kept.append(node)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue(), marks, kept


def resolve_indices(code: str, marks: Sequence[Mark]) -> str:
    """``code`` with ``index_<k> = (cx, cy)`` lines prepended for every ``index_<k>`` it uses.

    ``(cx, cy)`` is the centre ``(x + w//2, y + h//2)`` of mark ``k`` (1-based). An index that no
    mark carries raises :class:`ActionError`, where the original silently left the name undefined
    and the code then died with a NameError in the guest. Apply it to each code action of a
    reply (the original did the same); special actions (WAIT/DONE/FAIL) need no resolving.
    """
    assignments = []
    for number in dict.fromkeys(_INDEX_NAME.findall(code)):
        k = int(number)
        if not 1 <= k <= len(marks):
            raise ActionError(
                f"index_{number} is not a mark on the screenshot; valid indices are 1..{len(marks)}"
                if marks else f"index_{number} is not a mark on the screenshot; it has no marks"
            )
        x, y, w, h = marks[k - 1]
        assignments.append(f"index_{number} = ({x + w // 2}, {y + h // 2})\n")
    return "".join(assignments) + code


def scale_png(png: bytes, max_width: int) -> tuple[bytes, float]:
    """Shrink a screenshot to at most ``max_width`` pixels wide; return it and the scale factor.

    Models bill and sometimes cap by image size. A point the model picks on the scaled image maps
    back to the screen by dividing by the factor (or with :func:`pytest_spider2v.run.actions.map_point`).
    An image already narrow enough is returned as is, with factor 1.0.
    """
    if max_width <= 0:
        raise ValueError(f"max_width must be positive, got {max_width}")
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    width, height = image.size
    if width <= max_width:
        return png, 1.0
    factor = max_width / width
    resized = image.resize((max_width, max(1, round(height * factor))), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    resized.save(out, format="PNG")
    return out.getvalue(), factor


def _has_detail(image: Image.Image, node: Node) -> bool:
    """Whether the visible part of the node's box holds more than one colour."""
    left, top = max(node.x, 0), max(node.y, 0)
    right, bottom = min(node.x + node.w, image.width), min(node.y + node.h, image.height)
    if right <= left or bottom <= top:
        return False
    extrema = image.crop((left, top, right, bottom)).getextrema()
    return any(low != high for low, high in extrema)  # type: ignore[misc]  # a screenshot is RGB(A): one (low, high) pair per band; a one-band image would fail here


@functools.cache
def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    try:
        return ImageFont.truetype("DejaVuSans.ttf", FONT_SIZE)
    except OSError:
        return ImageFont.load_default(FONT_SIZE)
