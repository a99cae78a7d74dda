"""Masking for the reset check: a tree without what legitimately differs between two resets.

Two resets of a task must give the same accessibility tree; clocks, status messages and a few
toolkit quirks differ anyway, so both trees are normalised before they are compared.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

#: Times and dates that legitimately differ between two resets (clock applets, file dialogs).
_CLOCKS = re.compile(
    r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?\b"
    r"|\b\d{4}-\d{2}-\d{2}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
)


_STATE = "{uri:deskat:state.at-spi.gnome.org}"
#: Roles whose text is progress by nature ("Loading file…", "Saving…"), timing-dependent like a clock.
_TRANSIENT_TEXT_ROLES = frozenset({"status-bar"})
_COMPONENT = "{uri:deskat:component.at-spi.gnome.org}"
#: Actions a node offers come from event listeners a web page attaches when its scripts get to
#: it ("click" on a landmark); agents' observations do not include them.
_ACTION = "{uri:deskat:action.at-spi.gnome.org}"


def mask_clocks(tree: str) -> str:
    """The tree, one element per line, without what legitimately varies between two resets:
    clock times and dates; status-bar messages; leaf nodes neither showing nor visible; the
    actions nodes offer; the geometry of nodes not on screen (toolkits report uninitialised
    values for them); and a focused flag left on an element whose descendant has the focus
    (LibreOffice keeps one on its root pane at random)."""
    root = ElementTree.fromstring(tree)
    _normalise(root)
    lines = []
    for element in root.iter():
        attrs = " ".join(f'{k}="{v}"' for k, v in sorted(element.attrib.items()))
        lines.append(f"<{element.tag} {attrs}>{(element.text or '').strip()}")
    return _CLOCKS.sub("<time>", "\n".join(lines))


def _normalise(element: ElementTree.Element) -> bool:
    """Normalise ``element``'s subtree in place; whether it holds a focused node."""
    focused_below = False
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
    focused = element.get(_STATE + "focused") == "true"
    if focused and focused_below:
        del element.attrib[_STATE + "focused"]
    return focused or focused_below


def _perceivable(element: ElementTree.Element) -> bool:
    """Whether a node could reach an agent: showing or visible. Toolkits keep hidden widgets in
    the tree that come and go at random (Chromium pins a hidden "Chrome Labs" button some time
    after start-up); agents' tree observations drop them, so the reset check does too."""
    return element.get(_STATE + "showing") == "true" or element.get(_STATE + "visible") == "true"
