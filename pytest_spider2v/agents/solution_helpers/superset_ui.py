"""Guest helpers for the Superset reference solutions: they read the screen (known pixels of
dialog overlays, Explore's query badge and buttons) and open Explore and SQL Lab by URL.

A solution cell that runs ``from superset_ui import explore`` gets this module shipped with it by
the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest.
"""

import time

import pyautogui
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
