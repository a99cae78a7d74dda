"""Guest helpers for reference solutions that work with the desktop's windows: wait for a window
and raise it, wait for a file or for a condition, open a drop-down or a menu and pick an entry
by keyboard, and move around LibreOffice Calc by keyboard (Name Box, Save As).

An agent looks at the screen until the window it needs is there; these helpers ask the window
manager (``wmctrl``) instead of sleeping for a guessed time, and fail the cell, saying what they
waited for, when it never comes. A solution cell that runs ``from desktop import focus`` gets
this module shipped with it by the oracle agent (see
:mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest.
"""

import os
import subprocess
import time

import pyautogui

# -- waiting -----------------------------------------------------------------------------------------

def until(check, timeout=30.0, what="the condition", every=0.2):
    """Poll ``check()`` until it returns something true, and return that; after ``timeout``
    seconds fail the cell with a TimeoutError naming ``what`` it waited for."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:g} s for {what}")
        time.sleep(every)


def wait_file(path, timeout=30.0):
    """Wait until ``path`` exists (a program's output file)."""
    until(lambda: os.path.exists(path), timeout, f"the file {path}")


# -- windows -----------------------------------------------------------------------------------------

def _wmctrl(*options):
    return subprocess.run(["wmctrl", *options], capture_output=True, text=True).stdout.splitlines()


def titles():
    """The titles of the desktop's windows (``wmctrl -l``: id, desktop, host, then the title)."""
    return [(line.split(None, 3) + [""])[3] for line in _wmctrl("-l")]


def classes():
    """The WM classes of the desktop's windows (``wmctrl -lx``), e.g. gnome-terminal-server.Gnome-terminal."""
    return [line.split()[2] for line in _wmctrl("-lx") if len(line.split()) > 2]


def _matches(text, title, whole):
    return title == text if whole else text in title


def has_window(text, whole=False):
    """True when a window's title contains ``text`` (``whole``: is exactly ``text``)."""
    return any(_matches(text, title, whole) for title in titles())


def wait_window(text, timeout=30.0, whole=False):
    """Wait until a window's title contains ``text`` (``whole``: is exactly ``text``)."""
    until(lambda: has_window(text, whole), timeout, f"a window {text!r}")


def wait_gone(text, timeout=30.0, whole=False):
    """Wait until no window's title contains ``text`` (a dialog or an application has closed)."""
    until(lambda: not has_window(text, whole), timeout, f"the window {text!r} to close")


def focus(text, settle=1.0, timeout=30.0, whole=False):
    """Once a window titled with ``text`` is there, raise it and give it ``settle`` seconds to
    take the keyboard (a window that was just raised can miss the first keys)."""
    wait_window(text, timeout, whole)
    subprocess.run(["wmctrl", "-F", "-a", text] if whole else ["wmctrl", "-a", text])
    time.sleep(settle)


def corner(*texts):
    """Top-left corner (x, y) of the first window whose title contains one of ``texts``, or
    None: where a dialog sits, to click its controls at offsets measured from it."""
    for line in _wmctrl("-lG"):
        parts = line.split(None, 7)
        if len(parts) == 8 and any(text in parts[7] for text in texts):
            return int(parts[2]), int(parts[3])
    return None


# -- widgets by keyboard ------------------------------------------------------------------------------

def choose(x, y, downs):
    """Open the drop-down at (x, y) with a click and pick the option ``downs`` entries below the
    one it shows, with the arrow keys and Enter (how a person picks from a long list quickly)."""
    pyautogui.click(x, y)
    time.sleep(0.8)
    for _ in range(downs):
        pyautogui.press("down")
        time.sleep(0.2)
    pyautogui.press("enter")
    time.sleep(0.5)


def menu(key, item):
    """Open the menu bar's menu of the mnemonic ``key`` (Alt+key) and choose its entry number
    ``item`` (0: the first), counted with the arrow key."""
    pyautogui.hotkey("alt", key)
    time.sleep(1)
    pyautogui.press("down", presses=item, interval=0.2)
    pyautogui.press("enter")
    time.sleep(1)


# -- LibreOffice Calc by keyboard ------------------------------------------------------------------------

def name_box(reference):
    """Go to a cell or select a range (``"E1"``, ``"A1:B13"``) by typing it into Calc's Name Box
    (Ctrl+Shift+F5), which does not depend on where the grid is scrolled."""
    pyautogui.hotkey("ctrl", "shift", "f5")
    time.sleep(0.5)
    pyautogui.typewrite(reference + "\n", interval=0.05)
    time.sleep(0.5)


def save_as(name):
    """File > Save As... (Ctrl+Shift+S): type ``name`` (a file name or a path; its extension
    picks the file type) over the proposed one and press Enter."""
    pyautogui.hotkey("ctrl", "shift", "s")
    wait_window("Save", whole=True)
    time.sleep(1)
    pyautogui.hotkey("ctrl", "a")
    pyautogui.typewrite(name + "\n", interval=0.02)
