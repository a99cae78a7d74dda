"""Guest helpers for the Airflow reference solutions: find Chromium's on-screen controls through
AT-SPI and click them like a user, and wait for a DAG run's outcome.

A solution cell that runs ``from airflow_ui import click`` gets this module shipped with it by
the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`); it runs in the guest.
"""

import base64
import json
import time
import urllib.request

import pyatspi
import pyautogui


def _nodes(node, depth=0):
    """Every accessible under node; parts that vanish while the page changes are skipped."""
    if node is None or depth > 60:
        return
    yield node
    try:
        children = [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return
    for child in children:
        yield from _nodes(child, depth + 1)


def _visible(role, name=None, contains=False):
    """(accessible, centre) of the visible Chromium accessibles with this role (and name, if given)."""
    hits = []
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        try:
            app = desktop.getChildAtIndex(i)
            if app is None or not (app.name or "").lower().startswith("chrom"):
                continue
        except Exception:
            continue
        for node in _nodes(app):
            try:
                if node.getRoleName() != role:
                    continue
                text = (node.name or "").strip()
                if name is not None and not (name in text if contains else text == name):
                    continue
                e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            except Exception:
                continue
            if e.width > 0 and e.height > 0 and 0 <= e.y < 1080 and 0 <= e.x < 1920:
                hits.append((node, (e.x + e.width // 2, e.y + e.height // 2)))
    return hits


def find_all(role, name=None, contains=False):
    """Centres of the visible Chromium accessibles with this role (and name, if given)."""
    return [centre for _, centre in _visible(role, name, contains)]


def find(role, name=None, timeout=60.0, contains=False, index=0, near_y=None):
    """Centre of the index-th matching accessible, or of the one nearest to near_y (polls)."""
    deadline = time.time() + timeout
    while True:
        hits = find_all(role, name, contains)
        if near_y is not None and hits:
            return min(hits, key=lambda p: abs(p[1] - near_y))
        if len(hits) > index:
            return hits[index]
        if time.time() > deadline:
            raise TimeoutError(f"no {role} named {name!r} on screen")
        time.sleep(0.3)


def click(role, name=None, **kw):
    x, y = find(role, name, **kw)
    pyautogui.click(x, y)
    return x, y


def type_into(name, text, timeout=60.0):
    """Replace the text of the entry whose name contains name, until it reads text: a form page
    still starting up can put its default value back around keys typed too early."""
    deadline = time.time() + timeout
    while True:
        hits = _visible("entry", name, contains=True)
        if hits:
            node, (x, y) = hits[0]
            pyautogui.click(x, y)
            pyautogui.hotkey("ctrl", "a")
            pyautogui.typewrite(text, interval=0.02)
            time.sleep(1)
            try:
                if node.queryText().getText(0, -1) == text:
                    return
            except Exception:
                pass
        if time.time() > deadline:
            raise TimeoutError(f"the entry {name!r} does not take {text!r}")
        time.sleep(0.5)


def select_option(shown, option, timeout=60.0):
    """Choose ``option`` in the searchable drop-down (select2) that shows ``shown`` now, as a
    person does: open it, click its search box, type the option and click it in the filtered
    list; again until the drop-down shows it (a click before the page's scripts have turned the
    plain select into the drop-down opens nothing)."""
    deadline = time.time() + timeout
    while True:
        hits = find_all("combo box", shown, contains=True) or find_all("combo box", option, contains=True)
        if hits:
            x, y = hits[0]
            pyautogui.click(x, y)
            time.sleep(0.5)
            search = [c for n, c in _visible("entry") if not (n.name or "").strip() and y < c[1] < y + 80]
            if search:
                pyautogui.click(*search[0])
                pyautogui.typewrite(option, interval=0.03)
                try:
                    click("list item", option, timeout=5)
                    time.sleep(0.5)
                except TimeoutError:
                    pass
            if find_all("combo box", option, contains=True):
                return
            pyautogui.press("escape")
        if time.time() > deadline:
            raise TimeoutError(f"the drop-down showing {shown!r} does not take {option!r}")
        time.sleep(0.5)


def follow(link, field, timeout=60.0):
    """Click the link until the page it leads to shows an entry named field: a click while the
    page is still loading can come to nothing, so it is clicked again."""
    deadline = time.time() + timeout
    while not find_all("entry", field, contains=True):
        if time.time() > deadline:
            raise TimeoutError(f"the link {link!r} did not lead to an entry {field!r}")
        hits = find_all("link", link)
        if hits:
            pyautogui.click(*hits[0])
            try:
                find("entry", field, timeout=10, contains=True)
            except TimeoutError:
                pass
        else:
            time.sleep(0.5)


def open_add_form(page, field, timeout=60.0):
    """Admin > page (Variables, Connections, ...), then "Add +" above the list; returns once the
    form's entry named field is there."""
    click("link", "Admin")
    time.sleep(0.5)
    click("link", page)
    follow("Add +", field, timeout)


def new_connection(timeout=60.0):
    """Admin > Connections > Add; returns once the form is there."""
    open_add_form("Connections", "Connection Id", timeout)


def save_connection(conn_id, timeout=30.0):
    """Scroll to the bottom of the connection form, click Save, and wait until Airflow has the
    connection; returns it as the REST API shows it."""
    pyautogui.scroll(-20)
    time.sleep(1)
    click("push button", "Save", contains=True)
    deadline = time.time() + timeout
    while True:
        try:
            return api(f"connections/{conn_id}")
        except Exception:
            if time.time() > deadline:
                raise TimeoutError(f"the connection {conn_id} was not saved") from None
            time.sleep(0.5)


def _switch(dag_id, timeout):
    """The pause/unpause switch at the left of dag_id's row in the DAGs list: (accessible, centre)."""
    deadline = time.time() + timeout
    while True:
        _, y = find("link", dag_id, timeout=timeout)
        boxes = [(n, p) for n, p in _visible("check box") if p[0] < 100 and abs(p[1] - y) < 30]
        if boxes:
            return boxes[0]
        if time.time() > deadline:
            raise TimeoutError(f"no pause switch in the row of {dag_id}")
        time.sleep(0.3)


def dag_switch(dag_id, timeout=60.0):
    """Click the pause/unpause switch at the left of dag_id's row in the DAGs list."""
    _, centre = _switch(dag_id, timeout)
    pyautogui.click(*centre)
    return centre


def dag_switch_on(dag_id, timeout=60.0):
    """Whether the switch of dag_id's row shows the DAG unpaused (the page's view, which it
    turns back when Airflow refuses a click)."""
    node, _ = _switch(dag_id, timeout)
    return node.getState().contains(pyatspi.STATE_CHECKED)


def api(path, method="GET", body=None):
    """Airflow's REST API, only to wait for the outcome of what was done in the UI."""
    req = urllib.request.Request("http://localhost:8080/api/v1/" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Authorization", "Basic " + base64.b64encode(b"admin:admin").decode())
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.load(resp)


def wait_run(dag_id, timeout=80.0):
    """Wait until the DAG's newest run has finished; its state ("timeout" when it has not).
    A cell must end within the action timeout (90 s): a longer run is waited for again."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        runs = api(f"dags/{dag_id}/dagRuns?order_by=-execution_date&limit=1")["dag_runs"]
        if runs and runs[0]["state"] in ("success", "failed"):
            return runs[0]["state"]
        time.sleep(1)
    return "timeout"
