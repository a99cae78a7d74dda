"""The original harness's accessibility walk: pyatspi, one blocking D-Bus round trip per
attribute per node (reference §4.2).

Kept as the baseline the fast walk (:mod:`.a11y`) is measured against and must equal, and
served by ``/accessibility?walk=naive``. Run as ``python3 -m guest.a11y_naive``: a fresh
process has no stale pyatspi cache, and a walk that takes too long can be killed.
"""

from __future__ import annotations

import sys

import pyatspi
from lxml import etree

from .a11y_format import (
    MAX_CHILDREN,
    MAX_DEPTH,
    NS,
    SPREADSHEET_ROLE,
    VALUE_FIELDS,
    add_action,
    add_pairs,
    clean,
    clean_text,
    qname,
    showing_cells,
    tag,
)


def _state_name(state: object) -> str:
    full = pyatspi.StateType._enum_lookup.get(int(state), str(state))
    return full.split("_", 1)[1].lower() if "_" in full else full.lower()


def _pairs(attributes) -> list[tuple[str, str]]:
    """AT-SPI attributes arrive as a dict or as ``"key:value"`` strings, by binding version."""
    if isinstance(attributes, dict):
        return list(attributes.items())
    return [tuple(item.split(":", 1)) for item in attributes or [] if ":" in item]


def _attributes(node) -> dict[str, str]:
    attrs: dict[str, str] = {"name": clean(node.name or "")}
    for state in node.getState().getStates():
        attrs[qname("st", _state_name(state))] = "true"
    add_pairs(attrs, "attr", _pairs(node.get_attributes()))
    try:
        comp = node.queryComponent()
    except NotImplementedError:
        pass
    else:
        attrs[qname("cp", "screencoord")] = str(tuple(comp.getPosition(pyatspi.XY_SCREEN)))
        attrs[qname("cp", "windowcoord")] = str(tuple(comp.getPosition(pyatspi.XY_WINDOW)))
        attrs[qname("cp", "parentcoord")] = str(tuple(comp.getPosition(pyatspi.XY_PARENT)))
        attrs[qname("cp", "size")] = str(tuple(comp.getSize()))
    try:
        doc = node.queryDocument()
    except NotImplementedError:
        pass
    else:
        for key, getter in (("locale", "getLocale"), ("pagecount", "getPageCount"),
                            ("currentpage", "getCurrentPageNumber")):
            try:
                attrs[qname("doc", key)] = clean(getattr(doc, getter)())
            except Exception:  # older AT-SPI lacks the page calls; a dead app raises GError
                pass
        add_pairs(attrs, "docattr", _pairs(doc.getAttributes()))
    try:
        node.queryImage()
        attrs["image"] = "true"
    except NotImplementedError:
        pass
    try:
        node.querySelection()
        attrs["selection"] = "true"
    except NotImplementedError:
        pass
    try:
        value = node.queryValue()
    except NotImplementedError:
        pass
    else:
        for key, prop in VALUE_FIELDS:
            try:
                attrs[qname("val", key)] = str(getattr(value, prop[0].lower() + prop[1:]))
            except Exception:
                pass
    try:
        action = node.queryAction()
    except NotImplementedError:
        pass
    else:
        for i in range(action.nActions):
            add_action(attrs, action.getName(i), action.getDescription(i), action.getKeyBinding(i))
    return attrs


def _text(node) -> str:
    try:
        text = node.queryText()
    except NotImplementedError:
        return ""
    return clean_text(text.getText(0, text.characterCount))


def _showing(node) -> bool:
    return node.getState().contains(pyatspi.STATE_SHOWING)


def _calc_cells(table):
    iface = table.queryTable()
    scan = showing_cells(iface.nRows, iface.nColumns)
    try:
        row, col = next(scan)
        while True:
            cell = iface.getAccessibleAt(row, col)
            showing = cell is not None and _showing(cell)
            if showing:
                yield cell
            row, col = scan.send(showing)
    except StopIteration:
        return


def _children(node, role: str, in_calc: bool):
    if in_calc and role == "table":
        yield from _calc_cells(node)
        return
    for i in range(min(node.childCount, MAX_CHILDREN)):
        yield node.getChildAtIndex(i)


def _build(node, parent, depth: int, in_calc: bool):
    raw_role = node.getRoleName().strip()
    role = tag(raw_role)
    in_calc = in_calc or raw_role == SPREADSHEET_ROLE
    if parent is None:
        element = etree.Element(role, attrib=_attributes(node), nsmap=NS)
    else:
        element = etree.SubElement(parent, role, attrib=_attributes(node))
    text = _text(node)
    if text:
        element.text = text
    if depth >= MAX_DEPTH:
        return element
    try:
        for child in _children(node, role, in_calc):
            if child is not None:
                try:
                    _build(child, element, depth + 1, in_calc)
                except Exception:  # an application closing mid-walk: keep the rest of the tree
                    continue
    except Exception:
        pass
    return element


def tree_xml() -> str:
    return etree.tostring(_build(pyatspi.Registry.getDesktop(0), None, 0, False), encoding="unicode")


def main() -> int:
    sys.stdout.write(tree_xml())
    return 0


if __name__ == "__main__":
    sys.exit(main())
