"""Guest helpers for reference solutions that work in LibreOffice Calc through its window alone, as
a person does: read the sheet's cells as the screen shows them, open menus and click dialog
controls where they are, type into fields. Where things are comes from Calc's accessibility tree
(AT-SPI, ``pyatspi``): each control's role, name and place on the screen; every action is a
pyautogui click or key press there.

A solution cell that runs ``from calc_ui import click`` gets this module, and :mod:`desktop`
that it uses, shipped with it by the oracle agent (see
:mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest.
"""

import re
import time

import pyautogui
from desktop import until

# -- Calc's accessibility tree -----------------------------------------------------------------------

def _app():
    """LibreOffice's application accessible (``soffice``)."""
    import pyatspi
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and (app.name or "").startswith("soffice"):
            return app
    return None


def _showing(node):
    import pyatspi
    try:
        return node.getState().contains(pyatspi.STATE_SHOWING)
    except Exception:
        return False


def _subtree(node, depth=0):
    """node and every shown accessible below it; a sheet's grid (millions of cells) is not
    entered, and a part that goes away while a dialog changes is skipped."""
    yield node
    if depth > 40:
        return
    try:
        if node.getRoleName() == "table" and node.childCount > 10000:
            return
        kids = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return
    for kid in kids:
        if kid is not None and _showing(kid):
            yield from _subtree(kid, depth + 1)


def windows():
    """Calc's shown top-level windows (the document frame, dialogs, drop-down lists) as
    (title, accessible)."""
    app = _app()
    if app is None:
        return []
    return [(kid.name or "", kid) for kid in (app.getChildAtIndex(i) for i in range(app.childCount))
            if kid is not None and _showing(kid)]


def _tops(window):
    """The top-level windows to search: all (None), the title's window, or ("popup") the
    untitled drop-down lists and colour pickers."""
    for title, top in windows():
        if window is None or (window == "popup" and not title and top.getRoleName() == "window") \
                or (window != "popup" and title.startswith(window)):
            yield top


def find(role, name, window=None, contains=False):
    """The first shown accessible with this AT-SPI role and name (exact, or a part of it with
    ``contains``) in the windows :func:`_tops` picks by ``window`` (a title's start), or None."""
    for top in _tops(window):
        for node in _subtree(top):
            try:
                text = node.name or ""
                if node.getRoleName() == role and (name in text if contains else text == name):
                    return node
            except Exception:
                continue
    return None


def wait(role, name, window=None, contains=False, timeout=20.0):
    """Wait until :func:`find` finds the accessible, and return it."""
    return until(lambda: find(role, name, window, contains), timeout, f"a {role} {name!r} in Calc")


def _box(node):
    import pyatspi
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return box.x, box.y, box.width, box.height


def centre(node):
    """(x, y) of an accessible's centre on the screen."""
    x, y, width, height = _box(node)
    return x + width // 2, y + height // 2


def beside(anchor, role, window, side="right"):
    """The shown control of ``role`` nearest to the ``side`` ("right" or "below") of ``anchor``
    (the text of a label in ``window``, or an accessible): how a person finds a field that has no
    name of its own, by the caption or the control next to it."""
    if isinstance(anchor, str):
        anchor = wait("label", anchor, window)
    ax, ay, aw, ah = _box(anchor)
    best = None
    for top in _tops(window):
        for node in _subtree(top):
            try:
                if node.getRoleName() != role:
                    continue
                x, y, w, h = _box(node)
            except Exception:
                continue
            if side == "right":
                fits, gap = ay <= y + h // 2 <= ay + ah and x >= ax + aw, x - (ax + aw)
            else:
                fits, gap = x < ax + aw and ax < x + w and y >= ay + ah, y - (ay + ah)
            if fits and (best is None or gap < best[0]):
                best = (gap, node)
    if best is None:
        raise LookupError(f"no {role} {side} of {anchor.name!r} in {window!r}")
    return best[1]


def click(role, name, window=None, contains=False, timeout=20.0, settle=0.8):
    """Click the centre of the shown control with this role and name (waiting for it), then give
    Calc ``settle`` seconds to react."""
    pyautogui.click(*centre(wait(role, name, window, contains, timeout)))
    time.sleep(settle)


def choose(dropdown, entry):
    """Open a drop-down (its accessible: a toggle button) with a click and click its ``entry`` in
    the list that opens."""
    pyautogui.click(*centre(dropdown))
    time.sleep(1.0)
    click("table cell", entry, window="popup")


def type_into(field, text):
    """Click into a text field (its accessible) and replace what it holds with ``text``."""
    pyautogui.click(*centre(field))
    time.sleep(0.3)
    pyautogui.hotkey("ctrl", "a")
    pyautogui.typewrite(text, interval=0.03)
    time.sleep(0.3)


def menu(*path):
    """Choose a menu bar entry by clicking through its menus: ``menu("Format", "Conditional",
    "Condition...")``; each entry is clicked once it shows."""
    for i, name in enumerate(path):
        roles = ("menu",) if i < len(path) - 1 else ("menu item", "check menu item", "radio menu item")
        node = until(lambda: next((n for n in (find(r, name) for r in roles) if n is not None), None), 20,
                     f"the menu entry {name!r}")
        pyautogui.click(*centre(node))
        time.sleep(0.8)


def dialog(title, timeout=30.0):
    """Wait until Calc shows a window whose title starts with ``title`` (a dialog); return its
    full title."""
    return until(lambda: next((t for t, _ in windows() if title and t.startswith(title)), None), timeout,
                 f"the dialog {title!r}")


def closed(title, timeout=30.0):
    """Wait until no Calc window's title starts with ``title`` (the dialog has closed)."""
    until(lambda: not any(t.startswith(title) for t, _ in windows()), timeout, f"the dialog {title!r} to close")


def custom_color(dropdown, hex_rgb):
    """Set a colour drop-down (its accessible, e.g. the Font Effects tab's "Font color:") to a
    colour of no palette: open it, click "Custom Color…", type ``hex_rgb`` ("00FF00") into the
    "Pick a Color" dialog's Hex field and press its OK."""
    pyautogui.click(*centre(dropdown))
    time.sleep(1.0)
    click("push button", "Custom Color…", window="popup")
    dialog("Pick a Color")
    type_into(beside("Hex #:", "text", "Pick a Color"), hex_rgb)
    pyautogui.press("tab")
    time.sleep(0.5)
    click("push button", "OK", window="Pick a Color")
    closed("Pick a Color")


def save(name, timeout=30.0):
    """Save the document with Ctrl+S, in its own format (the desktop's LibreOffice does not ask
    to keep a non-ODF format), and wait until its file, ``name`` in the home folder (or a path),
    has been written."""
    import os
    path = os.path.join(os.path.expanduser("~"), name)
    before = os.path.getmtime(path)
    pyautogui.hotkey("ctrl", "s")
    until(lambda: os.path.getmtime(path) != before, timeout, f"{path} to be saved", every=0.5)
    time.sleep(1.0)


# -- the sheet as the screen shows it ------------------------------------------------------------------

def _grid():
    """The accessible of the sheet shown in Calc's document window (role table, "Sheet <name>")."""
    return until(lambda: find("table", "Sheet ", window=_document(), contains=True), 30, "Calc's sheet")


def _document():
    """The title of Calc's document window."""
    return until(lambda: next((t for t, _ in windows() if t.endswith(" - LibreOffice Calc")), None), 30,
                 "Calc's document window")


def _index(column):
    number = 0
    for letter in column:
        number = number * 26 + ord(letter.upper()) - 64
    return number - 1


def letter(index):
    """The column letters of a 0-based column index (0: "A", 26: "AA")."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def _text(grid, reference):
    column, row = re.fullmatch(r"([A-Za-z]+)(\d+)", reference).groups()
    content = grid.queryTable().getAccessibleAt(int(row) - 1, _index(column)).queryText()
    return content.getText(0, content.characterCount)


def text(reference):
    """The text of a cell (``"C20"``) of the sheet Calc shows, as its accessible reads it (a
    number with all its digits)."""
    return _text(_grid(), reference)


def headers():
    """The texts of row 1 of the sheet Calc shows, from column A up to the first empty cell."""
    grid, found = _grid(), []
    while _text(grid, f"{letter(len(found))}1").strip():
        found.append(_text(grid, f"{letter(len(found))}1").strip())
    return found


def column_of(header):
    """The letter of the column whose row-1 header reads ``header``."""
    return letter(headers().index(header))


def last_row(column="A"):
    """The number of the last row of the data block in ``column`` (before its first empty cell)."""
    grid, row = _grid(), 1
    while _text(grid, f"{column}{row + 1}").strip():
        row += 1
    return row
