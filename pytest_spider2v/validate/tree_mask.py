"""Masking for the reset check: a tree without what legitimately differs between two resets.

Two resets of a task must give the same accessibility tree; clocks, status messages and a few
toolkit quirks differ anyway, so both trees are normalised before they are compared. Each tree
is masked on its own (the check compares two strings), so what may vary is decided from one
tree's content and layout, never by comparing against the other.
"""

from __future__ import annotations

import bisect
import re
from xml.etree import ElementTree

#: Times and dates that legitimately differ between two resets (clock applets, file dialogs, a
#: countdown run into the next word in a web page's text: "0:28Runs"), whole ISO 8601 timestamps
#: (Airflow's navbar clock carries one in its ``datetime`` attribute, whose hour and date change
#: between two resets either side of the hour), the hours on a timeline ("11AM", "12PM":
#: Dagster's overview slides them along as time passes), and times relative to now, which web UIs
#: show for when something last happened (Dagster's code locations "Updated 41 seconds ago", "a
#: minute ago").
_CLOCKS = re.compile(
    r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?(?!\d)"
    r"|\b\d{1,2}\s?[AaPp][Mm]\b"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\b(?:\d+|an?|a few) (?:second|minute|hour|day)s? ago\b"
)


_STATE = "{uri:deskat:state.at-spi.gnome.org}"
#: A web element's CSS classes: a set, listed in the order the page's scripts added them, which
#: follows the order of events (JupyterLab's tab gained "jp-mod-dirty" before "jp-mod-active" in
#: one reset and after it in the other).
_CLASS = "{uri:deskat:attributes.at-spi.gnome.org}class"
#: Random identifiers a web page gives its elements when it builds them (JupyterLab's launcher
#: is ``id-<uuid4>``): new at every page load, like a clock's time.
_GENERATED_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
#: Page parts a browser fills in from the profile after the page shows: (document URI, element
#: tag). Chromium's new-tab page gets its shortcut tiles ("Web Store", "Add shortcut") a moment
#: later, so whether they are there yet depends on when the tree is read, like a clock's time.
_LATE_FILLED = frozenset({("chrome://new-tab-page/", "cr-most-visited")})
_TAG = "{uri:deskat:attributes.at-spi.gnome.org}tag"
_DOCUMENT_URI = "{uri:deskat:attributes.document.at-spi.gnome.org}URI"
#: Roles whose text is progress by nature ("Loading file…", "Saving…"), timing-dependent like a clock.
_TRANSIENT_TEXT_ROLES = frozenset({"status-bar"})
_COMPONENT = "{uri:deskat:component.at-spi.gnome.org}"
#: Actions a node offers come from event listeners a web page attaches when its scripts get to
#: it ("click" on a landmark); agents' observations do not include them.
_ACTION = "{uri:deskat:action.at-spi.gnome.org}"
#: Geometry attributes, ``"(x, y)"`` or ``"(width, height)"``: the first number is horizontal.
_GEOMETRY = tuple(_COMPONENT + name for name in ("screencoord", "windowcoord", "parentcoord", "size"))
_PAIR = re.compile(r"\((-?\d+), (-?\d+)\)")
#: Roles whose size their window, the viewport or a scrolled container sets, not their content:
#: a text growing or shrinking inside one moves nothing outside it.
_FRAMES = frozenset({"desktop-frame", "frame", "window", "dialog", "file-chooser", "alert", "root-pane",
                     "internal-frame", "scroll-pane", "viewport"})
#: Roles whose columns are as wide as their widest cell (HTML tables, GTK tree views): a cell's
#: text can move cells in every row.
_TABLES = frozenset({"table", "tree-table"})


def mask_clocks(tree: str) -> str:
    """The tree, one element per line, without what legitimately varies between two resets:
    clock times and dates; status-bar messages; leaf nodes neither showing nor visible; the
    actions nodes offer; the geometry of nodes not on screen (toolkits report uninitialised
    values for them); a focused flag left on an element whose descendant has the focus
    (LibreOffice keeps one on its root pane at random); UUIDs, which pages generate as element
    ids at every load; a link's visited flag (Chromium marks
    links to pages in its history a moment after the visit, on a page already shown); the order
    of a web element's CSS classes (a set, in the order the page's scripts added them); what a
    browser fills in late from the profile (Chromium's new-tab shortcut tiles); the
    horizontal geometry that masked text can move (see ``_mask_reflow``); and whether nodes that
    hold nothing but times are on screen, and where (see ``_unpin_times``)."""
    root = ElementTree.fromstring(tree)
    _normalise(root)
    _mask_reflow(root)
    _unpin_times(root)
    lines = []
    for element in root.iter():
        attrs = " ".join(f'{k}="{v}"' for k, v in sorted(element.attrib.items()))
        lines.append(f"<{element.tag} {attrs}>{(element.text or '').strip()}")
    return _CLOCKS.sub("<time>", _GENERATED_ID.sub("<uuid>", "\n".join(lines)))


def _normalise(element: ElementTree.Element) -> bool:
    """Normalise ``element``'s subtree in place; whether it holds a focused node."""
    focused_below = False
    if (element.get(_DOCUMENT_URI), element.get(_TAG)) in _LATE_FILLED:
        for child in list(element):
            element.remove(child)
        for key in _GEOMETRY:
            element.attrib.pop(key, None)
    for child in list(element):
        child_focused = _normalise(child)
        focused_below = child_focused or focused_below
        if not child_focused and len(child) == 0 and not _perceivable(child):
            element.remove(child)
    for key in [k for k in element.attrib if k.startswith(_ACTION)]:
        del element.attrib[key]
    if element.tag in _TRANSIENT_TEXT_ROLES:
        element.set("name", "<transient>")
        element.text = None
    if element.get(_STATE + "showing") != "true":
        for key in [k for k in element.attrib if k.startswith(_COMPONENT)]:
            del element.attrib[key]
    element.attrib.pop(_STATE + "visited", None)
    if _CLASS in element.attrib:
        element.set(_CLASS, " ".join(sorted(element.attrib[_CLASS].split())))
    focused = element.get(_STATE + "focused") == "true"
    if focused and focused_below:
        del element.attrib[_STATE + "focused"]
    return focused or focused_below


def _perceivable(element: ElementTree.Element) -> bool:
    """Whether a node could reach an agent: showing or visible. Toolkits keep hidden widgets in
    the tree that come and go at random (Chromium pins a hidden "Chrome Labs" button some time
    after start-up); agents' tree observations drop them, so the reset check does too."""
    return element.get(_STATE + "showing") == "true" or element.get(_STATE + "visible") == "true"


def _mask_reflow(root: ElementTree.Element) -> None:
    """Mask the x and width of whatever sits on the same line as masked text, within its frame.

    Masked text still has a width, and it varies with the text: "10:11" is narrower than
    "10:00" in a proportional font. That width goes to the node holding the text and to every
    container sized by its content up to the nearest frame, and shifts the nodes laid out
    beside it: those after it in a left-aligned row, those before it (and the text itself) in
    a right-aligned or centred one. Which of these happened cannot be told from one tree, but
    all of them share the text's line: their vertical extent overlaps it. So within the
    nearest frame every node overlapping the line of masked text loses its x positions and
    its width; y and height still count, as does all geometry off that line. Inside a table
    the line is the whole table, since a cell's width sets its column's in every row.
    """
    lines: dict[ElementTree.Element, set[tuple[int, int]]] = {}
    _find_lines(root, root, None, None, lines)
    for frame, spans in lines.items():
        merged = _merge(spans)
        tops = [top for top, _ in merged]
        for node in frame.iter():
            extent = _extent(node)
            if node is not frame and extent and _overlaps(extent, merged, tops):
                _mask_horizontal(node)


def _unpin_times(element: ElementTree.Element) -> tuple[bool, bool]:
    """Drop the showing flag and the geometry of every node whose subtree has text and all of it
    masked times. Returns whether ``element``'s subtree has text, and whether all of it is times.

    A timeline's hour labels slide along as time passes (Dagster's overview): which of them
    lies inside the viewport, and so is showing with a position, depends on the minute the tree
    is read in, like the hours themselves. Runs after ``_mask_reflow``, which needs their lines."""
    texts = [t for t in (element.text or "", element.get("name", "")) if t.strip()]
    has_text = bool(texts)
    only_times = all(not _CLOCKS.sub("", text).strip(" ,") for text in texts)
    for child in element:
        child_text, child_times = _unpin_times(child)
        has_text = has_text or child_text
        only_times = only_times and (child_times or not child_text)
    if has_text and only_times:
        element.attrib.pop(_STATE + "showing", None)
        for key in _GEOMETRY:
            element.attrib.pop(key, None)
    return has_text, only_times


def _find_lines(element: ElementTree.Element, frame: ElementTree.Element, table: tuple[int, int] | None,
                above: tuple[int, int] | None, lines: dict[ElementTree.Element, set[tuple[int, int]]]) -> None:
    """Record, under its nearest frame, the line of each masked text in ``element``'s subtree.

    ``table`` is the extent of the nearest table below ``frame``. ``above`` is that of the
    nearest node with geometry below ``frame``, the line of showing text that has none of its
    own; text not showing has no line (it is off screen, and its ancestors' extent could be the
    whole page). A frame's own text is a title (a window's, a page's) and is not laid out in
    it, so it has no line either."""
    own = _extent(element)
    if element.tag in _FRAMES or element.tag.startswith("document-"):
        frame, table, above, own_line = element, None, None, None
    else:
        table = own if element.tag in _TABLES and own else table
        showing = element.get(_STATE + "showing") == "true"
        own_line = own or (above if showing else None)
        above = own or above
    line = table or own_line
    if line and _holds_masked_text(element):
        lines.setdefault(frame, set()).add(line)
    for child in element:
        _find_lines(child, frame, table, above, lines)


def _holds_masked_text(element: ElementTree.Element) -> bool:
    """Whether ``mask_clocks`` hides some of this node's own text: a time or date in its text or
    an attribute, or a status message."""
    if element.tag in _TRANSIENT_TEXT_ROLES:
        return True
    texts = [element.text or ""] + [v for k, v in element.attrib.items() if not k.startswith(_COMPONENT)]
    return any(_CLOCKS.search(text) for text in texts)


def _extent(element: ElementTree.Element) -> tuple[int, int] | None:
    """The node's vertical extent on screen, top to bottom (at least a pixel tall); None when it
    has no geometry (not showing, or no component)."""
    position = _PAIR.fullmatch(element.get(_COMPONENT + "screencoord", ""))
    size = _PAIR.fullmatch(element.get(_COMPONENT + "size", ""))
    if not position or not size:
        return None
    top = int(position[2])
    return top, top + max(int(size[2]), 1)


def _merge(spans: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans as sorted, disjoint ones (a spreadsheet can have a date in every row)."""
    merged: list[tuple[int, int]] = []
    for top, bottom in sorted(spans):
        if merged and top <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], bottom))
        else:
            merged.append((top, bottom))
    return merged


def _overlaps(extent: tuple[int, int], merged: list[tuple[int, int]], tops: list[int]) -> bool:
    """Whether ``extent`` overlaps one of the sorted, disjoint ``merged`` spans (``tops`` their
    tops): only the last span starting above its bottom can."""
    i = bisect.bisect_left(tops, extent[1]) - 1
    return i >= 0 and merged[i][1] > extent[0]


def _mask_horizontal(element: ElementTree.Element) -> None:
    """Replace the horizontal half of each geometry pair: ``(59, 60)`` becomes ``(~, 60)``."""
    for key in _GEOMETRY:
        pair = _PAIR.fullmatch(element.get(key, ""))
        if pair:
            element.set(key, f"(~, {pair[2]})")
