"""Guest helpers for reference solutions that work in a notebook in JupyterLab (in Chromium), by
keyboard as a person would: run a code cell, run the one typed into and wait for the file it
writes, run all cells from the notebook's toolbar, choose an entry of JupyterLab's menu bar (found
by its name in Chromium's accessibility tree), change a line of the cell being edited, save
until the notebook file on disk holds the work (or, once cleared, no outputs).

JupyterLab saves in the background and a Ctrl+S pressed while a cell still runs can save the
notebook without its output, so :func:`save_until` presses Ctrl+S until the saved file shows the
result instead of trusting one press. A solution cell that runs ``from jupyter_ui import
save_until`` gets this module, and :mod:`desktop` that it uses, shipped with it by the oracle
agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

import json
import time
import urllib.request

import pyautogui
from accessibles import subtree
from desktop import until, wait_file

#: where the notebook's first code cell is on the desktop's screen, with JupyterLab maximised
FIRST_CELL = (600, 320)
#: the Jupyter server's kernels, with their state and last activity
KERNELS = "http://localhost:8888/api/kernels"


def _kernels():
    with urllib.request.urlopen(KERNELS, timeout=10) as response:
        return json.load(response)


def run_all_cells(button=(539, 161), tries=3):
    """Run every cell: the notebook toolbar's "Restart the kernel and run all cells" button (at
    ``button``, with the file browser open beside the notebook), then Enter on the dialog's
    Restart, until a kernel is busy running them. The command palette is no way for a helper:
    on a busy machine it opens after the command's name was typed, and those letters become
    notebook shortcuts. A kernel's last activity is no sign either: JupyterLab's own requests
    (kernel info, comms) move it while nothing runs."""
    for _ in range(tries):
        pyautogui.click(*button)
        time.sleep(1.5)
        pyautogui.press("enter")
        try:
            until(lambda: any(k["execution_state"] == "busy" for k in _kernels()), 20, "a kernel to run the cells",
                  every=0.1)
            return
        except TimeoutError:
            pyautogui.press("esc")  # a dialog that opened late
    raise TimeoutError(f"the cells did not start running in {tries} tries")


def _all_ran(notebook):
    with open(notebook, encoding="utf-8") as handle:
        cells = json.load(handle)["cells"]
    return all(c.get("execution_count") for c in cells if c["cell_type"] == "code" and "".join(c["source"]).strip())


def save_when_all_ran(notebook, timeout=80.0):
    """Once every kernel is idle, press Ctrl+S until the saved ``notebook`` has an execution
    count on every code cell that has code (within ``timeout``, under a cell's 90 s)."""
    def saved():
        if any(k["execution_state"] != "idle" for k in _kernels()):
            return False
        pyautogui.hotkey("ctrl", "s")
        time.sleep(1.5)
        return _all_ran(notebook)
    until(saved, timeout, f"{notebook} saved with every code cell run", every=2.0)


def run_first_cell():
    """Click into the notebook's first code cell and run it (Shift+Enter): the cell's names
    exist in the kernel, and a new empty cell below it has the keyboard."""
    pyautogui.click(*FIRST_CELL)
    time.sleep(0.3)
    pyautogui.hotkey("shift", "enter")
    time.sleep(1.0)


def run_until(path, timeout=30.0, settle=0.0):
    """Run the cell being edited (Shift+Enter) and wait until it has written ``path``; then
    ``settle`` seconds for the output (a plot) to be drawn into the notebook."""
    pyautogui.hotkey("shift", "enter")
    wait_file(path, timeout)
    time.sleep(settle)


def _saved(notebook, text, cell):
    with open(notebook, encoding="utf-8") as handle:
        if cell is None:
            return text in handle.read()
        return text in json.dumps(json.load(handle)["cells"][cell].get("outputs", []))


def save_until(notebook, text, cell=None, timeout=30.0):
    """Press Ctrl+S until the saved ``notebook`` file holds ``text``: anywhere, or with ``cell``
    (an index, -1: the last) in that cell's outputs."""
    def saved():
        pyautogui.hotkey("ctrl", "s")
        time.sleep(0.6)
        return _saved(notebook, text, cell)
    until(saved, timeout, f"{notebook} saved with {text!r}", every=0.1)


def _go_to_line(number):
    """Put the cursor at the start of line ``number`` (1: the first) of the cell being edited."""
    pyautogui.hotkey("ctrl", "home")
    pyautogui.press("down", presses=number - 1, interval=0.05)
    pyautogui.press("home")


def retype_line(number, text):
    """Replace the text of line ``number`` of the cell being edited by ``text``."""
    _go_to_line(number)
    pyautogui.hotkey("shift", "end")
    pyautogui.typewrite(text, interval=0.01)


def delete_line(number):
    """Delete line ``number`` of the cell being edited, with its line break."""
    _go_to_line(number)
    pyautogui.hotkey("shift", "down")
    pyautogui.press("delete")


# -- JupyterLab's menu bar, found in Chromium's accessibility tree ---------------------------------

def menu_items(label):
    """The centres (x, y) of the shown menu items of Chromium (JupyterLab's menu bar and its open
    menu) named ``label``: exactly, or ``label`` and then its shortcut ("Find… Ctrl+F")."""
    import pyatspi
    desktop, found = pyatspi.Registry.getDesktop(0), []
    browsers = [desktop.getChildAtIndex(i) for i in range(desktop.childCount)]
    for app in browsers:
        if app is None or not (app.name or "").startswith("Chrom"):
            continue
        for node in subtree(app):
            try:
                name = (node.name or "").strip()
                if node.getRoleName() != "menu item" or not (name == label or name.startswith(label + " ")):
                    continue
                if not node.getState().contains(pyatspi.STATE_VISIBLE):
                    continue
                box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            except Exception:
                continue
            if box.width > 0 and box.height > 0:
                found.append((box.x + box.width // 2, box.y + box.height // 2))
    return found


def choose_menu(menu, item, tries=3, timeout=10.0):
    """Click ``menu`` in JupyterLab's menu bar (File, Edit, ...), then its entry ``item`` once the
    menu shows it (a click on a page still settling may open nothing: the menu is clicked again)."""
    for _ in range(tries):
        x, y = until(lambda: menu_items(menu), 30, f"the menu {menu!r}")[0]
        pyautogui.click(x, y)
        try:
            x, y = until(lambda: menu_items(item), timeout, f"the menu entry {item!r}", every=0.3)[0]
        except TimeoutError:
            pyautogui.press("esc")
            continue
        time.sleep(0.3)
        pyautogui.click(x, y)
        time.sleep(1.0)
        return
    raise TimeoutError(f"the menu {menu!r} did not show {item!r} in {tries} tries")


def _cleared(notebook):
    with open(notebook, encoding="utf-8") as handle:
        cells = json.load(handle)["cells"]
    return not any(c.get("outputs") or c.get("execution_count") for c in cells if c["cell_type"] == "code")


def save_when_cleared(notebook, timeout=30.0):
    """Press Ctrl+S until the saved ``notebook`` has no output and no execution count in any code
    cell (the outputs were cleared on screen; this waits for the file to say so)."""
    def saved():
        pyautogui.hotkey("ctrl", "s")
        time.sleep(1.0)
        return _cleared(notebook)
    until(saved, timeout, f"{notebook} saved with every output cleared", every=0.5)
