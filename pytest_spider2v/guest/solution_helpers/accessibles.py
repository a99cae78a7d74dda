"""Walking the accessibility tree (AT-SPI): every accessible under a node, for the helpers that
find a web page's controls in Chromium (:mod:`superset_ui`, :mod:`jupyter_ui`)."""


def subtree(node, depth=0):
    """node and every accessible below it; a part that goes away while the page changes is skipped."""
    yield node
    if depth > 70:
        return
    try:
        kids = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return
    for kid in kids:
        if kid is not None:
            yield from subtree(kid, depth + 1)
