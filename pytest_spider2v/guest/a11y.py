"""The AT-SPI accessibility tree as XML, in the original harness's format (reference §4.2).

Run as ``python3 -m guest.a11y`` (the server starts one process per request): a fresh process
has no stale AT-SPI cache, a hung application cannot wedge the server, and a walk that takes
too long can be killed. ``--check`` only asks the registry for the desktop's children.
"""

from __future__ import annotations

import re
import sys

import pyatspi
from lxml import etree

NS = {
    "st": "uri:deskat:state.at-spi.gnome.org",
    "attr": "uri:deskat:attributes.at-spi.gnome.org",
    "cp": "uri:deskat:component.at-spi.gnome.org",
    "doc": "uri:deskat:document.at-spi.gnome.org",
    "docattr": "uri:deskat:attributes.document.at-spi.gnome.org",
    "txt": "uri:deskat:text.at-spi.gnome.org",
    "val": "uri:deskat:value.at-spi.gnome.org",
    "act": "uri:deskat:action.at-spi.gnome.org",
}
MAX_DEPTH = 50
MAX_CHILDREN = 1025
#: Calc tables have millions of cells; only showing ones are emitted, and a scan gives up
#: after this many rows or columns without one.
CALC_GIVE_UP = 500

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_XML_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")


def _clean(value: object) -> str:
    return _NOT_XML.sub("", str(value))


def _q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def _state_name(state: object) -> str:
    full = pyatspi.StateType._enum_lookup.get(int(state), str(state))
    return full.split("_", 1)[1].lower() if "_" in full else full.lower()


def _pairs(attributes) -> list[tuple[str, str]]:
    """AT-SPI attributes arrive as a dict or as ``"key:value"`` strings, by binding version."""
    if isinstance(attributes, dict):
        return list(attributes.items())
    return [tuple(item.split(":", 1)) for item in attributes or [] if ":" in item]


def _attributes(node) -> dict[str, str]:
    attrs: dict[str, str] = {"name": _clean(node.name or "")}
    for state in node.getState().getStates():
        attrs[_q("st", _state_name(state))] = "true"
    for key, value in _pairs(node.get_attributes()):
        if _XML_NAME.match(key):
            attrs[_q("attr", key)] = _clean(value)
    try:
        comp = node.queryComponent()
    except NotImplementedError:
        pass
    else:
        attrs[_q("cp", "screencoord")] = str(tuple(comp.getPosition(pyatspi.XY_SCREEN)))
        attrs[_q("cp", "windowcoord")] = str(tuple(comp.getPosition(pyatspi.XY_WINDOW)))
        attrs[_q("cp", "parentcoord")] = str(tuple(comp.getPosition(pyatspi.XY_PARENT)))
        attrs[_q("cp", "size")] = str(tuple(comp.getSize()))
    try:
        doc = node.queryDocument()
    except NotImplementedError:
        pass
    else:
        for key, getter in (("locale", "getLocale"), ("pagecount", "getPageCount"),
                            ("currentpage", "getCurrentPageNumber")):
            try:
                attrs[_q("doc", key)] = _clean(getattr(doc, getter)())
            except Exception:  # older AT-SPI lacks the page calls; a dead app raises GError
                pass
        for key, value in _pairs(doc.getAttributes()):
            if _XML_NAME.match(key):
                attrs[_q("docattr", key)] = _clean(value)
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
        for key, prop in (("value", "currentValue"), ("min", "minimumValue"),
                          ("max", "maximumValue"), ("step", "minimumIncrement")):
            try:
                attrs[_q("val", key)] = str(getattr(value, prop))
            except Exception:
                pass
    try:
        action = node.queryAction()
    except NotImplementedError:
        pass
    else:
        for i in range(action.nActions):
            name = action.getName(i).replace(" ", "-")
            if _XML_NAME.match(name):
                attrs[_q("act", f"{name}_desc")] = _clean(action.getDescription(i))
                attrs[_q("act", f"{name}_kb")] = _clean(action.getKeyBinding(i))
    return attrs


def _text(node) -> str:
    try:
        text = node.queryText()
    except NotImplementedError:
        return ""
    return _clean(text.getText(0, text.characterCount).replace("\ufffc", "").replace("\ufffd", ""))


def _showing(node) -> bool:
    return node.getState().contains(pyatspi.STATE_SHOWING)


def _calc_cells(table):
    """Showing cells of a Calc sheet, row by row from the first showing one."""
    iface = table.queryTable()
    first_col: int | None = None
    seen = False
    rows_without = 0
    for row in range(iface.nRows):
        found = False
        misses = 0
        for col in range(first_col or 0, iface.nColumns):
            cell = iface.getAccessibleAt(row, col)
            if cell is not None and _showing(cell):
                found = True
                first_col = col if first_col is None else first_col
                yield cell
            elif found:
                break
            else:
                misses += 1
                if misses >= CALC_GIVE_UP:
                    break
        if found:
            seen = True
        elif seen:
            return
        else:
            rows_without += 1
            if rows_without >= CALC_GIVE_UP:
                return


def _children(node, role: str, in_calc: bool):
    if in_calc and role == "table":
        yield from _calc_cells(node)
        return
    for i in range(min(node.childCount, MAX_CHILDREN)):
        yield node.getChildAtIndex(i)


def _build(node, parent, depth: int, in_calc: bool):
    raw_role = node.getRoleName().strip()
    role = (raw_role or "unknown").replace(" ", "-")
    in_calc = in_calc or raw_role == "document spreadsheet"
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
    if sys.argv[1:] == ["--check"]:
        print(pyatspi.Registry.getDesktop(0).childCount)
        return 0
    sys.stdout.write(tree_xml())
    return 0


if __name__ == "__main__":
    sys.exit(main())
