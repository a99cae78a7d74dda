"""Guest helpers for reference solutions that edit text files in gedit by keyboard, as a person
would: open a file from the terminal, type code over gedit's automatic indentation, replace one
line, find a text with gedit's search and type over it, save and close.

Each waits for its effect (gedit's window there, or gone) instead of a guessed time. A solution
cell that runs ``from gedit import retype_line`` gets this module, and :mod:`desktop` that it
uses, shipped with it by the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

import os
import time

import pyautogui
from desktop import wait_gone, wait_window


def open_file(path, settle=1.5):
    """Type ``gedit PATH &`` into the terminal and wait for gedit's window, titled with the
    file's name; ``settle`` seconds let it take the keyboard."""
    pyautogui.typewrite(f"gedit {path} &\n", interval=0.02)
    wait_window(os.path.basename(path))
    time.sleep(settle)


def type_lines(text, interval=0.01):
    """Type ``text`` (without its first and last newline) into gedit line by line: gedit copies
    the previous line's indentation into a new line, so each line first selects that
    (Shift+Home) and types over it, and keeps exactly the indentation written."""
    if text.startswith("\n"):
        text = text[1:]
    if text.endswith("\n"):
        text = text[:-1]
    for line in text.split("\n"):
        pyautogui.hotkey("shift", "home")
        pyautogui.typewrite(line + "\n", interval=interval)


def retype_line(number, text):
    """Replace the text of line ``number`` (1: the first) by ``text``, keeping the line."""
    pyautogui.hotkey("ctrl", "home")
    pyautogui.press("down", presses=number - 1)
    pyautogui.press("end")
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(text, interval=0.02)


def select_text(text, settle=0.5):
    """Select ``text``, which the file gedit shows holds once: gedit's search bar (Ctrl+F) finds
    it as it is typed, Enter keeps the match selected (Escape alone would cancel the search and
    put the cursor back) and Escape then closes the bar; what is typed next replaces the match."""
    pyautogui.hotkey("ctrl", "home")
    pyautogui.hotkey("ctrl", "f")
    time.sleep(1.0)
    pyautogui.typewrite(text, interval=0.02)
    time.sleep(settle)
    pyautogui.press("enter")
    time.sleep(0.3)
    pyautogui.press("esc")
    time.sleep(0.3)


def replace_text(old, new):
    """Type ``new`` over ``old``, which the file holds once (found by :func:`select_text`)."""
    select_text(old)
    pyautogui.typewrite(new, interval=0.02)


def save_and_close(name, timeout=30.0):
    """Save (Ctrl+S), quit gedit (Ctrl+Q) and wait until its window of ``name`` is gone."""
    pyautogui.hotkey("ctrl", "s")
    time.sleep(1)
    pyautogui.hotkey("ctrl", "q")
    wait_gone(name, timeout)
