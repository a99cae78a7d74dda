"""Guest helpers for the Dagster reference solutions: find Chromium page elements through the
accessibility tree (to click them like a user), ask Dagster's GraphQL API when runs finish and
what the loaded definitions hold, and whether a web server answers. (Windows, the terminal and
waits in general are :mod:`desktop`'s and :mod:`terminal`'s.)

A solution cell that runs ``from dagster_ui import click`` gets this module shipped with it by
the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest.
"""

import json
import time
import urllib.request

import pyatspi
import pyautogui

CLICKABLE = ("push button", "link", "toggle button", "check box", "menu item", "page tab", "list item")


def _chromium():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and "hromium" in (app.name or ""):
            return app
    return None


def nodes(pred):
    app = _chromium()
    found = []
    if app is None:
        return found
    def walk(n):
        try:
            if pred(n) and n.getState().contains(pyatspi.STATE_SHOWING):
                e = n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                if e.width > 0 and e.height > 0:
                    found.append((n, e))
            children = list(n)
        except Exception:
            return
        for c in children:
            walk(c)
    walk(app)
    return found


def named(name, roles=CLICKABLE):
    def pred(n):
        nm = n.name or ""
        return (nm == name or nm.endswith(" " + name)) and n.getRoleName() in roles
    return pred


def wait_for(name, roles=CLICKABLE, timeout=60):
    deadline = time.time() + timeout
    while True:
        hits = nodes(named(name, roles))
        if hits:
            return hits
        if time.time() > deadline:
            raise RuntimeError("not on screen: " + name)
        time.sleep(0.5)


def click(name, roles=CLICKABLE, timeout=60, index=0):
    n, e = wait_for(name, roles, timeout)[index]
    pyautogui.click(e.x + e.width // 2, e.y + e.height // 2)
    time.sleep(0.5)


def goto(url):
    pyautogui.hotkey("ctrl", "l")
    time.sleep(0.3)
    pyautogui.typewrite(url + "\n", interval=0.01)


def graphql(query):
    req = urllib.request.Request("http://localhost:3000/graphql", data=json.dumps({"query": query}).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req, timeout=20))["data"]


def wait_runs_done(expected_runs=1, timeout=80, required=True):
    """The runs (their statuses) once there are expected_runs and all have ended. A cell has 90 s:
    a longer run is waited for by several cells, all but the last with required=False, which
    gives None instead of failing when the runs have not ended yet."""
    q = "{ runsOrError { ... on Runs { results { status } } } }"
    deadline = time.time() + timeout
    while time.time() < deadline:
        runs = graphql(q)["runsOrError"]["results"]
        if len(runs) >= expected_runs and all(r["status"] in ("SUCCESS", "FAILURE", "CANCELED") for r in runs):
            return runs
        time.sleep(1)
    if required:
        raise RuntimeError("runs did not finish")
    return None


def answers(url):
    """True when url answers an HTTP GET with a success status."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return 200 <= response.status < 300
    except Exception:
        return False


def asset_checks():
    """Asset (its key's path joined by "/") -> the names of its checks, in the definitions the
    web server has loaded: what "Reload definitions" has picked up."""
    q = "{ assetNodes { assetKey { path } assetChecksOrError { ... on AssetChecks { checks { name } } } } }"
    return {"/".join(node["assetKey"]["path"]): [c["name"] for c in (node["assetChecksOrError"] or {}).get("checks", [])]
            for node in graphql(q)["assetNodes"]}
