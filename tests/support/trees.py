"""Comparing accessibility trees as the agents read them: element names, attributes (in any
order), text and children, in order."""

from __future__ import annotations

from xml.etree import ElementTree


def differences(left: str, right: str, limit: int = 10) -> list[str]:
    """Where two trees differ (at most ``limit`` places), empty when they are equal."""
    found: list[str] = []
    _walk(ElementTree.fromstring(left), ElementTree.fromstring(right), "", found, limit)
    return found


def node_count(tree: str) -> int:
    return sum(1 for _ in ElementTree.fromstring(tree).iter())


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _walk(a: ElementTree.Element, b: ElementTree.Element, path: str, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    here = f"{path}/{_local(a.tag)}[{a.get('name', '')!r}]"
    if a.tag != b.tag:
        found.append(f"{here}: element {_local(a.tag)} != {_local(b.tag)}")
        return
    for key in sorted(set(a.attrib) | set(b.attrib)):
        if a.get(key) != b.get(key):
            found.append(f"{here}: {_local(key)} {a.get(key)!r} != {b.get(key)!r}")
    if (a.text or "") != (b.text or ""):
        found.append(f"{here}: text {a.text!r} != {b.text!r}")
    if len(a) != len(b):
        found.append(f"{here}: {len(a)} children != {len(b)}")
    for x, y in zip(a, b):
        _walk(x, y, here, found, limit)
