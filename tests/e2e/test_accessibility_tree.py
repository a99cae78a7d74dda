"""The fast accessibility walk gives the original walk's tree (issue: same nodes, same
attributes, far less time), on three real desktops: Calc with a sheet, Chromium with a page, a
terminal. Each desktop is a fresh container; nothing is mocked.

A walk is a snapshot of a live desktop, so the original (slow) walk is taken between two fast
ones on a desktop that has stopped changing, and must equal one of them. Every state a check
needs (a window, a filled-in tree, a scrolled sheet) is waited for, never read once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest
from openpyxl import Workbook

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.testing.waiting import wait_until
from tests.support.trees import differences, node_count

pytestmark = pytest.mark.e2e

STABLE_TIMEOUT = 60.0
# Besides form controls and a table: a header whose floated menu leaves it zero pixels high and
# links padded to fractions of a pixel, where Chromium's GetExtents and GetSize disagree.
PAGE = """<!doctype html><html lang="en"><head><title>Station readings</title></head><body>
<header><nav style="float:left"><ul style="list-style:none;margin:0">
<li style="float:left"><a href="#a" style="display:block;padding:19.5px 10.3px">Cluster Activity</a></li>
<li style="float:left"><a href="#b" style="display:block;padding:19.5px 10.3px">Browse</a></li></ul></nav></header>
<h1 style="clear:both">Station readings</h1><p>Daily <a href="#t">temperatures</a> of three stations.</p>
<form><label>Station <input name="station" value="North"></label>
<label><input type="checkbox" checked> only complete days</label>
<select name="month"><option>January</option><option selected>February</option></select>
<button type="button">Refresh</button></form>
<table id="t"><tr><th>Station</th><th>Mean</th></tr><tr><td>North</td><td>4.5</td></tr>
<tr><td>South</td><td>9.25</td></tr></table><input type="range" min="0" max="10" value="3"></body></html>
"""


@pytest.fixture
def desktop(conformance_provider: Provider) -> Iterator[Environment]:
    env = conformance_provider.acquire("desktop")
    try:
        yield env
    finally:
        conformance_provider.release(env)


def wait_for_window(env: Environment, text: str) -> None:
    """Until a window whose title or class has ``text`` exists."""
    wait_until(lambda: env.execute(["wmctrl", "-lx"]).stdout, lambda windows: text in windows,
               timeout=STABLE_TIMEOUT, what=f"a window {text!r} in wmctrl -lx", interval=0.2)


def settled_fast_tree(env: Environment, min_nodes: int) -> str:
    """The fast walk once two in a row agree and hold ``min_nodes`` nodes: the desktop has
    stopped changing, and the application has filled in its window (a window's title comes
    before its contents)."""
    previous = env.accessibility_tree()

    def last_two_walks() -> tuple[str, str]:
        nonlocal previous
        walks = previous, env.accessibility_tree()
        previous = walks[1]
        return walks

    def settled(walks: tuple[str, str]) -> bool:
        return not differences(*walks, limit=1) and node_count(walks[1]) >= min_nodes

    def summary(walks: tuple[str, str]) -> str:
        return f"{node_count(walks[1])} nodes, changed at {differences(*walks, limit=3) or 'no place'}"

    _, tree = wait_until(last_two_walks, settled, timeout=STABLE_TIMEOUT, show=summary,
                         what=f"two fast walks in a row to agree on at least {min_nodes} nodes")
    return tree


def first_cell(tree: str) -> tuple[str, int]:
    """Column and row of the first cell a tree holds (a Calc cell's name is its address)."""
    cell = next(e for e in ElementTree.fromstring(tree).iter() if e.tag.endswith("table-cell"))
    address = re.fullmatch(r"([A-Z]+)(\d+)", cell.get("name", ""))
    assert address, f"a cell named {cell.get('name')!r}"
    return address[1], int(address[2])


def assert_walks_agree(env: Environment, min_nodes: int) -> None:
    before = settled_fast_tree(env, min_nodes)
    naive = env.accessibility_tree(walk="naive")
    after = env.accessibility_tree()
    closest = min((differences(naive, fast) for fast in (before, after)), key=len)
    assert not closest, "the fast walk differs from the original:\n" + "\n".join(closest)
    assert node_count(naive) >= min_nodes


def test_calc_with_a_sheet(desktop: Environment, tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["Region", "Units", "Unit price", "Revenue"])
    for row in range(2, 60):
        sheet.append([f"Region {row}", row * 3, row / 4, f"=B{row}*C{row}"])
    book.save(tmp_path / "Readings.xlsx")
    desktop.upload(tmp_path / "Readings.xlsx", "/home/user/Readings.xlsx")
    desktop.open("/home/user/Readings.xlsx")
    wait_for_window(desktop, "Readings.xlsx - LibreOffice Calc")
    assert_walks_agree(desktop, min_nodes=1000)  # a screen of cells, menus, toolbars
    # scrolled down and right: the scan passes hidden rows and columns before the showing block
    desktop.run_python("pyautogui.click(600, 400); pyautogui.scroll(-6); pyautogui.hscroll(4)")
    wait_until(lambda: first_cell(desktop.accessibility_tree()), lambda cell: cell[0] != "A" and cell[1] != 1,
               timeout=STABLE_TIMEOUT, what="the sheet to scroll down and right (its first showing cell past A1)")
    assert_walks_agree(desktop, min_nodes=1000)


def test_chromium_with_a_page(desktop: Environment) -> None:
    desktop.upload(PAGE.encode(), "/home/user/readings.html")
    desktop.launch(["google-chrome", "--new-window", "file:///home/user/readings.html"])
    wait_for_window(desktop, "Station readings")
    assert_walks_agree(desktop, min_nodes=50)


def test_terminal(desktop: Environment) -> None:
    desktop.launch(["gnome-terminal", "--", "bash", "-c", "seq 1 30; echo spider2v; exec bash"])
    wait_for_window(desktop, "Gnome-terminal")
    assert_walks_agree(desktop, min_nodes=10)


# A D-Bus peer on the guest's session bus whose ``Busy`` answers after 0.1 s (96 at a time: 3,000
# take 3 s) and whose ``Silent`` never answers; the walk's pipe (short stall timeout) asks it.
PIPE_CHECK = """
import asyncio, json, time
from dbus_fast import BusType
from dbus_fast.aio import MessageBus
from dbus_fast.service import ServiceInterface, method
from guest import a11y

class Peer(ServiceInterface):
    @method()
    async def Busy(self) -> "i":
        await asyncio.sleep(0.1)
        return 1

    @method()
    async def Silent(self) -> "i":
        await asyncio.sleep(3600)
        return 0

async def main():
    a11y.STALL_TIMEOUT = 2.0
    server = await MessageBus(bus_type=BusType.SESSION).connect()
    server.export("/peer", Peer("test.Peer"))
    pipe = a11y.Pipe(await MessageBus(bus_type=BusType.SESSION).connect(), server.unique_name)
    busy = asyncio.ensure_future(pipe.many([("/peer", "test.Peer", "Busy", "", [])] * 3000))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    behind = await pipe.many([("/peer", "test.Peer", "Busy", "", [])] * 3)
    waited = time.monotonic() - started
    answered = sum(map(a11y._ok, await busy))
    started = time.monotonic()
    silent = await pipe.many([("/peer", "test.Peer", "Silent", "", [])])
    print(json.dumps({"behind": [a11y._ok(r) for r in behind], "waited": waited, "answered": answered,
                      "silent": repr(silent[0]), "silent_after": time.monotonic() - started}))

asyncio.run(main())
"""


def test_a_walk_waits_its_turn_behind_answered_questions_and_gives_up_on_silence(desktop: Environment) -> None:
    """Questions queued behind others that are being answered are not given up, however long the
    queue (the walk asks a level's details while it goes on below); an application that answers
    nothing for the stall timeout is."""
    desktop.upload(PIPE_CHECK.encode(), "/tmp/pipe_check.py")
    result = desktop.execute("cd /opt/spider2v && python3 - < /tmp/pipe_check.py", shell=True, timeout=60)
    assert result.ok, result.stdout + result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["behind"] == [True, True, True] and seen["waited"] > 2.0, seen  # waited longer than the stall timeout
    assert seen["answered"] == 3000, seen
    assert "no answer in 2 s" in seen["silent"] and 1.9 < seen["silent_after"] < 4.0, seen


def test_unknown_walk_is_refused(desktop: Environment) -> None:
    import httpx

    reply = httpx.get(desktop.base_url + "/accessibility", params={"walk": "fastest"})
    assert reply.status_code == 400 and "fast, naive" in reply.text
