"""Guest helpers for Superset reference solutions, built on :mod:`superset_ui`: work in SQL Lab
the way solutions do it alike. Run a query typed into the editor, and save its result as a
dataset through the result's Save menu.

Like :mod:`superset_ui`, they click known screen positions of SQL Lab (the desktop's screen,
Chromium maximised) and wait for known pixels. A solution cell that runs ``from superset_sqllab
import run_query`` gets this module, and :mod:`superset_ui` that it uses, shipped with it by the
oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

import json
import time
import urllib.parse
import urllib.request

import pyautogui
from superset_ui import looks, overlay, until

EDITOR = (1134, 264)  #: a point in SQL Lab's editor
CREATE_CHART = (484, 529, (233, 246, 249))  #: the result table's "Create chart" button, once there is a result
ERROR_BOX = (484, 529, (250, 237, 238))  #: at the same place, the (pink) box of a query's error
SAVE_ARROW, SAVE_DATASET = (1714, 421), (1677, 460)  #: the arrow next to "Save", and "Save dataset" in its menu
NAME_FIELD, SAVE_AND_EXPLORE = (1035, 299), (1175, 422)  #: in the "Save or Overwrite Dataset" dialog


def run_query(query, timeout=30, tries=3):
    """Replace the editor's text with ``query`` and run it (Ctrl+Enter); wait for its result.
    The query is typed on one line: a newline could accept an autocompletion pop-up. On a busy
    machine SQL Lab now and then loses the end of what is typed (the editor re-renders while the
    tab's text is saved): the run then ends in a syntax error, or runs the shorter query. Either
    way the query is typed again, until Superset says it ran exactly this one."""
    for _ in range(tries):
        pyautogui.click(*EDITOR)
        time.sleep(0.3)
        pyautogui.hotkey("ctrl", "a")
        pyautogui.typewrite(query, interval=0.01)
        time.sleep(0.3)
        pyautogui.hotkey("ctrl", "enter")
        until(lambda: not looks(*ERROR_BOX, 6), 5)  # an earlier run's error goes away
        until(lambda: looks(*CREATE_CHART) or looks(*ERROR_BOX, 6), timeout)
        if looks(*CREATE_CHART) and last_query().split() == query.split():
            return
    raise RuntimeError(f"SQL Lab did not run the query ({tries} tries): {query}")


def _call(path, data=None, token=None):
    req = urllib.request.Request("http://localhost:8088" + path, headers={"Content-Type": "application/json"},
                                 data=None if data is None else json.dumps(data).encode())
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def last_query():
    """The SQL of the query SQL Lab ran last, as Superset's REST API has it (login admin/admin):
    only to check the outcome of what was typed."""
    token = _call("/api/v1/security/login", {"username": "admin", "password": "admin", "provider": "db"})["access_token"]
    q = urllib.parse.quote("(order_column:changed_on,order_direction:desc,page_size:1)")
    queries = _call(f"/api/v1/query/?q={q}", token=token)["result"]
    return queries[0]["sql"] if queries else ""


def save_dataset(name):
    """Save > Save dataset, named ``name``; "Save & explore" creates it and opens it in a new
    tab, which is waited for."""
    for _ in range(10):  # the menu can take a while to open on a busy machine
        pyautogui.click(*SAVE_ARROW)
        time.sleep(1.5)
        pyautogui.click(*SAVE_DATASET)
        if until(overlay, 8):
            break
    else:
        raise SystemExit("the Save dataset dialog never opened")
    time.sleep(0.8)
    pyautogui.click(*NAME_FIELD)
    pyautogui.hotkey("ctrl", "a")
    pyautogui.typewrite(name, interval=0.01)
    pyautogui.click(*SAVE_AND_EXPLORE)
    until(lambda: not overlay(), 15)
    time.sleep(1)
    until(lambda: not looks(300, 600, (247, 247, 247), 2), 30)  # the new tab has finished loading
