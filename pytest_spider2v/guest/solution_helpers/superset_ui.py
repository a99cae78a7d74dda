"""Guest helpers for the Superset reference solutions. The first ones read the screen (known
pixels of dialog overlays, Explore's query badge and buttons) and open Explore and SQL Lab by URL;
the rest find the page's controls in Chromium's accessibility tree (AT-SPI) by role and name, and
click and fill them where they are, as a person reads the page: menus of the navigation bar,
select boxes, form fields under their caption, a table row's buttons, Chromium's file dialog.

A solution cell that runs ``from superset_ui import explore`` gets this module, and
:mod:`desktop` that it uses, shipped with it by the oracle agent (see
:mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest.
"""

import time

import pyautogui
from accessibles import subtree
from desktop import has_window, wait_window
from PIL import ImageGrab


def pixel(x, y):
    return ImageGrab.grab(xdisplay=":1").getpixel((x, y))[:3]


def until(cond, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.25)
    return False


def overlay():  # a modal dialog dims the (white) bottom-left corner of the page
    return sum(pixel(100, 1000)) < 600


def chart_done():  # Explore's query timer badge turns green once the chart's query has run
    r, g, b = pixel(1880, 238)
    return g > 150 and r < 160 and abs(b - 130) < 45


def explore(form_data):  # type an Explore URL with the chart's form data into the address bar
    pyautogui.press("escape")
    pyautogui.hotkey("ctrl", "l")
    time.sleep(1)  # the address bar selects its text first; keys typed before that are lost
    pyautogui.typewrite("http://localhost:8088/superset/explore/?form_data=" + form_data + "\n", interval=0.005)
    until(lambda: not chart_done(), 10)  # the previous page's badge goes away
    until(chart_done)
    time.sleep(2)


def looks(x, y, rgb, tol=14):
    return all(abs(a - b) <= tol for a, b in zip(pixel(x, y), rgb))


def dialog():  # the page is dimmed but the dialog (white) is in the middle
    return overlay() and looks(680, 300, (255, 255, 255), 4) and looks(959, 378, (255, 255, 255), 4)


def save_chart(name, dashboard=None, new_dashboard=False):
    for _ in range(4):  # "Save" at the top right opens the "Save chart" dialog
        if not overlay():
            pyautogui.click(1833, 173)
        if until(dialog, 8):
            break
    time.sleep(0.8)
    pyautogui.click(959, 378)  # "Chart name"
    pyautogui.typewrite(name, interval=0.01)
    save = (1217, 533)
    if dashboard:
        pyautogui.click(959, 454)  # "Add to dashboard"
        for _ in range(4):  # typed before the dashboard list has loaded, it says "No data": retype
            time.sleep(1.5)
            pyautogui.typewrite(dashboard, interval=0.01)
            if until(lambda: looks(1100, 493, (245, 245, 245), 4), 5):  # the matching entry is listed
                break
            pyautogui.hotkey("ctrl", "a")
            pyautogui.press("backspace")
        time.sleep(0.3)
        pyautogui.press("enter")
        if new_dashboard:  # the note "A new dashboard will be created" moves the buttons down
            until(lambda: looks(712, 504, (239, 248, 254), 4), 10)
            save = (1217, 572)
        time.sleep(0.5)
    until(lambda: looks(*save, (32, 167, 201), 30), 10)  # the (blue) Save button of the dialog
    pyautogui.click(*save)
    until(lambda: not overlay(), 15)
    time.sleep(1.5)


def sqllab():  # open SQL Lab (database "sales", schema "main") in the current tab
    pyautogui.hotkey("ctrl", "l")
    time.sleep(0.7)
    pyautogui.typewrite("http://localhost:8088/sqllab/\n", interval=0.01)
    time.sleep(1)
    until(lambda: looks(500, 421, (32, 167, 201), 30), 30)  # the blue "Run" button
    time.sleep(1.5)


# -- Chromium's accessibility tree: find the page's controls by role and name, click them -------
def _browser():
    import pyatspi
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and (app.name or "").startswith("Chrom"):
            return app
    return None


def _extents(node):
    import pyatspi
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return box.x, box.y, box.width, box.height


def on_screen(role=None, name=None, contains=False):
    """[(accessible, (x, y) of its centre)] of the shown Chromium accessibles with this role
    (AT-SPI role name) and name (exact, or a part of it with contains)."""
    import pyatspi
    app, found = _browser(), []
    for node in (subtree(app) if app is not None else ()):
        try:
            if role is not None and node.getRoleName() != role:
                continue
            text = (node.name or "").strip()
            if name is not None and not (name in text if contains else text == name):
                continue
            if not node.getState().contains(pyatspi.STATE_VISIBLE):  # (a pop-up's items are not SHOWING)
                continue
            x, y, w, h = _extents(node)
        except Exception:
            continue
        if w > 0 and h > 0 and 0 <= x + w // 2 < 1920 and 0 <= y + h // 2 < 1080:
            found.append((node, (x + w // 2, y + h // 2)))
    return found


def wait_for(role=None, name=None, contains=False, timeout=60, index=0):
    """The index-th of on_screen(...) once there are enough (polls); TimeoutError otherwise."""
    end = time.time() + timeout
    while True:
        hits = on_screen(role, name, contains)
        if len(hits) > index:
            return hits[index]
        if time.time() > end:
            raise TimeoutError(f"no {role or 'accessible'} named {name!r} on the screen")
        time.sleep(0.3)


def click(role, name, contains=False, timeout=60, index=0):
    """Click the centre of a control found by role and name (waiting until it is shown)."""
    _, (x, y) = wait_for(role, name, contains, timeout, index)
    pyautogui.click(x, y)
    time.sleep(0.4)
    return x, y


def click_until(role, name, shown, contains=False, tries=5, wait=8):
    """Click a control until shown() is true (what the click opens is there): a page that is
    still laying itself out can move the control under the pointer."""
    for _ in range(tries):
        click(role, name, contains)
        if until(shown, wait):
            return
    raise TimeoutError(f"clicking {role} {name!r} does not do its part")


def text_of(node):
    try:
        return node.queryText().getText(0, -1)
    except Exception:
        return None


def below(label, role="entry", timeout=60):
    """(accessible, centre) of the role control right under the text label (a form field
    whose own name is empty is found by the caption above it)."""
    end = time.time() + timeout
    while True:
        for _, (lx, ly) in on_screen("static", label):
            under = [(n, c) for n, c in on_screen(role) if 0 < c[1] - ly < 90]
            if under:
                return min(under, key=lambda h: (h[1][1] - ly, abs(h[1][0] - lx)))
        if time.time() > end:
            raise TimeoutError(f"no {role} under {label!r}")
        time.sleep(0.3)


def fill(role, name, text, label=None, timeout=60):
    """Replace the text of a form field found by role and name (its placeholder or label), or
    by the caption above it (label), with text, until the field reads it: a form still being
    set up can swallow early keys."""
    end = time.time() + timeout
    while True:
        node, (x, y) = below(label, role, timeout) if label else wait_for(role, name, timeout=timeout)
        pyautogui.click(x, y)
        pyautogui.hotkey("ctrl", "a")
        pyautogui.typewrite(str(text), interval=0.02)
        time.sleep(0.5)
        if role == "password text" or text_of(node) == str(text):
            return
        if time.time() > end:
            raise TimeoutError(f"the field {label or name!r} does not take {text!r}")


def click_in_row(row_text, role, name, timeout=60):
    """Click the control (role, name) in the table row whose cell reads row_text (a list's
    edit or delete button)."""
    end = time.time() + timeout
    while True:
        cells = on_screen("table cell", row_text)
        if cells:
            y = cells[0][1][1]
            hits = [c for _, c in on_screen(role, name) if abs(c[1] - y) <= 8]
            if hits:
                pyautogui.click(*hits[0])
                time.sleep(0.4)
                return hits[0]
        if time.time() > end:
            raise TimeoutError(f"no {role} {name!r} in the row of {row_text!r}")
        time.sleep(0.3)


def anywhere(role, name):
    """(accessible, centre) of the first Chromium accessible with this role and name, shown or not."""
    app = _browser()
    for node in (subtree(app) if app is not None else ()):
        try:
            if node.getRoleName() == role and (node.name or "").strip() == name:
                x, y, w, h = _extents(node)
                return node, (x + w // 2, y + h // 2)
        except Exception:
            continue
    return None


def scroll_into_view(role, name, at, top=200, bottom=950, timeout=60):
    """Scroll (the mouse wheel over the point at) until the control (role, name) lies between
    the heights top and bottom of the screen; its centre."""
    end = time.time() + timeout
    while True:
        hit = anywhere(role, name)
        if hit is not None and top <= hit[1][1] <= bottom:
            return hit[1]
        if time.time() > end:
            raise TimeoutError(f"cannot scroll {role} {name!r} into view")
        pyautogui.moveTo(*at)
        pyautogui.scroll(-3 if hit is None or hit[1][1] > bottom else 3)
        time.sleep(0.5)


# -- whole steps of Superset's pages ------------------------------------------------------------
def address():
    """The text of Chromium's address bar."""
    node, _ = wait_for("entry", "Address and search bar")
    return text_of(node) or ""


def menu(top, item, sub=None, expect=None, timeout=60):
    """Open the navigation bar's menu top ("Settings", "+"), then click its entry item; with sub,
    item is a sub-menu to point at first (+ > Data > Upload CSV to database). Tried again until
    expect, a (role, name) of what the entry opens, is on the screen."""
    def entry(name):  # a menu entry's name starts with its icon's character: "\uf1c0 Data"
        hits = [c for n, c in on_screen("menu item")
                if (n.name or "").strip() == name or (n.name or "").strip().endswith(" " + name)]
        if not hits:
            raise TimeoutError(f"no menu entry {name!r}")
        return hits[0]

    end = time.time() + timeout
    while True:
        pyautogui.press("escape")
        click("menu item", "triangle-down " + top, timeout=timeout)
        try:
            if sub is None:
                click("link", item, timeout=5)
            else:
                until(lambda: _try(entry, item), 5)
                pyautogui.moveTo(*entry(item))
                until(lambda: _try(entry, sub), 5)
                time.sleep(0.5)  # the sub-menu slides in
                pyautogui.click(*entry(sub))
            if expect is None:
                return
            wait_for(*expect, timeout=10)
            return
        except TimeoutError:
            if time.time() > end:
                raise


def _try(fn, *args):
    try:
        return fn(*args) or True
    except Exception:
        return False


def choose(combo, text, timeout=60):
    """Pick text in a select box (found by its accessible name): type it to filter the options,
    then Enter takes the first match. Typed before the box has fetched its options, the text
    finds "No Data" (and no option to create it either): then it is typed again."""
    click("combo box", combo, timeout=timeout)
    end = time.time() + timeout
    while True:
        time.sleep(0.8)
        pyautogui.typewrite(text, interval=0.03)
        if until(lambda: on_screen("static", text), 5):  # the matching option is listed
            break
        if time.time() > end:
            raise TimeoutError(f"no option {text!r} in {combo!r}")
        pyautogui.hotkey("ctrl", "a")
        pyautogui.press("backspace")
    time.sleep(0.3)
    pyautogui.press("enter")
    time.sleep(0.8)


def pick_file(path, timeout=30):
    """In Chromium's (GTK) "Open File" dialog, which AT-SPI does not show: type the path into
    its location field (Ctrl+L) and press Open (Alt+O; Enter there only completes the name),
    until the dialog has closed."""
    wait_window("Open File", timeout)
    time.sleep(0.8)
    pyautogui.hotkey("ctrl", "l")
    pyautogui.typewrite(path, interval=0.02)
    time.sleep(0.8)
    for _ in range(5):
        pyautogui.hotkey("alt", "o")
        if until(lambda: not has_window("Open File"), 5):
            return
    raise TimeoutError("the Open File dialog stays open")


def api(path):
    """GET Superset's REST API as admin (to wait for what the page does, as a person watches it)."""
    import json
    import urllib.request

    login = urllib.request.Request("http://localhost:8088/api/v1/security/login", method="POST",
                                   data=json.dumps({"username": "admin", "password": "admin",
                                                    "provider": "db"}).encode(),
                                   headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(login, timeout=30) as resp:
        token = json.load(resp)["access_token"]
    req = urllib.request.Request("http://localhost:8088/api/v1/" + path,
                                 headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def popover_save():
    """Click Save in the open pop-over (a dimension or metric being edited in Explore): the
    lowest of the screen's SAVE buttons, the page's own being at the top."""
    _, (x, y) = max(on_screen("push button", "SAVE"), key=lambda hit: hit[1][1])
    pyautogui.click(x, y)
    time.sleep(0.8)


def tick(box, at=(960, 700)):
    """Tick the check box named box, first scrolled into view (the mouse wheel over at, in the
    dialog that holds it); fail the cell unless it ends up ticked."""
    import pyatspi

    def ticked():
        hit = anywhere("check box", box)
        return hit is not None and hit[0].getState().contains(pyatspi.STATE_CHECKED)

    if not ticked():
        pyautogui.click(*scroll_into_view("check box", box, at=at))
    if not until(ticked, 10):
        raise TimeoutError(f"the box {box!r} is not ticked")
