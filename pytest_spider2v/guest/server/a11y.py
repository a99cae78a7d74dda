"""The accessibility tree as XML, fast: the same nodes and attributes as the original walk
(:mod:`.a11y_naive`), in a fraction of its time.

The original asks one question per attribute per node and waits for each answer. Here:

* every application is asked over a **peer-to-peer connection** of its own (AT-SPI's
  ``GetApplicationBusAddress``), not through the accessibility bus daemon, and all
  applications are walked at once;
* the application's **cache** (``Cache.GetItems``) gives the name, role, states, interfaces and
  place of every node it holds in one call; only nodes it lacks are asked for those;
* every other question is **pipelined**: sent without waiting for the previous answer, in
  batches per tree level, so the round trips overlap and the application answers at its own
  speed;
* a level's details are asked for as soon as the level is known, while the walk goes on below
  it, so that the application is never left without a question;
* a node is asked only for the interfaces it has, and in one question where the application's
  bridge answers several at once (at-spi2-atk's GTK bridge: ``GetAll`` of Value, ``GetExtents``
  for the window position and size);
* a Calc sheet's cells are asked only whether they are showing until the scan
  (:func:`.a11y_format.showing_cells`, shared with the original walk) has chosen them; the cells
  at the sheet's on-screen corners say which block shows, so the cells the scan will ask about
  are asked for in one batch (:func:`.a11y_format.cells_asked`) and the scan only checks.

The application's own time per answer is now what a walk costs: in LibreOffice 13-27 µs for
most questions, 80 µs for a cell's attributes and 106 µs for a cell (``GetAccessibleAt``
creates it; a cell's path is new on every walk, so nothing of it can be kept). The walk runs in
the guest server's process: it keeps no state between walks, and a walk that outlives its
deadline is cancelled.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import gi
from dbus_fast import BusType, Message, MessageType
from dbus_fast.aio import MessageBus
from lxml import etree

from .a11y_format import (
    MAX_CHILDREN,
    MAX_DEPTH,
    NS,
    SPREADSHEET_ROLE,
    VALUE_FIELDS,
    add_action,
    add_pairs,
    cells_asked,
    clean,
    clean_text,
    qname,
    showing_cells,
    tag,
)

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402  (role and state names only; no connection)

ATSPI = "org.a11y.atspi."
ACCESSIBLE, ACTION, CACHE, COMPONENT, DOCUMENT, TABLE, TEXT, VALUE = (
    ATSPI + name for name in ("Accessible", "Action", "Cache", "Component", "Document", "Table", "Text", "Value"))
IMAGE, SELECTION = ATSPI + "Image", ATSPI + "Selection"
PROPERTIES = "org.freedesktop.DBus.Properties"
REGISTRY = "org.a11y.atspi.Registry"
ROOT_PATH = "/org/a11y/atspi/accessible/root"
CACHE_PATH = "/org/a11y/atspi/cache"
NULL_PATH = "/org/a11y/atspi/null"
#: Requests in flight per connection. More gains nothing (the application answers one at a time)
#: and would fill the socket, which dbus-fast takes for a broken connection (EAGAIN).
WINDOW = 96
#: Walks of one application at most, when nodes vanish while it is walked (see _application).
REWALKS = 3
#: The error of a question about a node that no longer exists.
UNKNOWN_OBJECT = "org.freedesktop.DBus.Error.UnknownObject"
#: Seconds without any answer on a connection after which its application counts as not
#: answering: the questions still waiting fail (as libatspi's call timeout makes the original walk
#: skip such nodes) and the walk goes on without them. A batch queued behind others that are being
#: answered is still waiting its turn, not stalled.
STALL_TIMEOUT = 5.0
#: Rows of a Calc sheet asked ahead at once, once a row's width of showing cells is known.
ROWS_AHEAD = 8
#: Cells of a row asked ahead at once while looking for its first showing cell.
COLUMNS_AHEAD = 128
#: Cells asked about at most in the one batch of a sheet's expected scan (:func:`.cells_asked`).
MAX_PREFETCH = 20_000
XY_SCREEN, XY_WINDOW, XY_PARENT = 0, 1, 2

Call = tuple[str, str, str, str, list[Any]]  #: path, interface, member, signature, arguments


class CallFailed(Exception):
    """An error reply: the node is gone, or lacks what was asked."""


def _state_keys() -> tuple[tuple[int, str], ...]:
    keys = []
    for value in range(64):
        try:
            nick = Atspi.StateType(value).value_nick
        except ValueError:
            continue
        keys.append((value, qname("st", nick.replace("-", "_"))))
    return tuple(keys)


#: (bit, attribute) of every state, in the order the original walk writes them.
STATE_KEYS = _state_keys()
SHOWING = int(Atspi.StateType.SHOWING)
_role_names: dict[int, str] = {}


def role_name(role: int) -> str:
    if role not in _role_names:
        try:
            _role_names[role] = (Atspi.role_get_name(Atspi.Role(role)) or "").strip()
        except ValueError:
            _role_names[role] = ""
    return _role_names[role]


def _ok(reply: Any) -> bool:
    return not isinstance(reply, CallFailed)


def _bits(states: list[int]) -> int:
    """AT-SPI's state set (two 32-bit words) as one integer."""
    return (states[0] if states else 0) | ((states[1] << 32) if len(states) > 1 else 0)


class Pipe:
    """Method calls on one connection, up to :data:`WINDOW` in flight, answered in order."""

    def __init__(self, bus: MessageBus, destination: str | None) -> None:
        self.bus = bus
        self.destination = destination
        self._queue: deque[tuple[Message, _Batch, int]] = deque()
        self._waiting: dict[int, tuple[_Batch, int]] = {}
        self.lost: BaseException | None = None  #: why the connection closed, if it did
        self.vanished = 0  #: questions answered "no such object" (the node went while asked about)
        #: The connection's last sign of life: its last answer, or the question that ended a time
        #: with nothing asked.
        self._answered = time.monotonic()
        #: The application answers through at-spi2-atk's GTK bridge (``ToolkitName`` "gtk": GTK 3
        #: applications, LibreOffice): it answers ``GetAll`` of the Value interface, and its
        #: ``GetExtents`` in window coordinates is the position and size ``GetSize`` answers (ATK's
        #: own ``get_size``), so a node's four numbers take fewer questions.
        self.gtk = False
        bus.add_message_handler(self._on_message)
        self._watch = asyncio.ensure_future(bus.wait_for_disconnect())
        self._watch.add_done_callback(self._on_disconnect)

    async def many(self, calls: Iterable[Call]) -> list[Any]:
        """Each call's reply body, or :class:`CallFailed`, in the order of ``calls``."""
        batch = _Batch(asyncio.get_running_loop().create_future())
        for index, (path, interface, member, signature, args) in enumerate(calls):
            batch.replies.append(None)
            message = Message(destination=self.destination, path=path, interface=interface, member=member,
                              signature=signature, body=args)
            self._queue.append((message, batch, index))
        if not batch.replies:
            return batch.replies
        batch.remaining = len(batch.replies)
        self._send()
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(batch.future),
                                              max(0.05, self._answered + STALL_TIMEOUT - time.monotonic()))
            except (TimeoutError, asyncio.TimeoutError):
                if time.monotonic() - self._answered >= STALL_TIMEOUT:
                    self._give_up(batch)

    async def one(self, path: str, interface: str, member: str, signature: str = "", args: list[Any] | None = None) -> Any:
        reply = (await self.many([(path, interface, member, signature, args or [])]))[0]
        if not _ok(reply):
            raise reply
        return reply

    def _on_disconnect(self, watch: asyncio.Future[None]) -> None:
        """The application closed the connection (or it broke): fail everything asked on it."""
        if watch.cancelled():
            return
        self.lost = watch.exception() or ConnectionResetError("connection closed")
        failed = CallFailed(f"connection lost: {self.lost!r}")
        for batch, index in self._waiting.values():
            batch.answer(index, failed)
        for _, batch, index in self._queue:
            batch.answer(index, failed)
        self._waiting.clear()
        self._queue.clear()

    def _send(self) -> None:
        while self._queue and len(self._waiting) < WINDOW and self.lost is None:
            if not self._waiting:
                self._answered = time.monotonic()
            message, batch, index = self._queue.popleft()
            message.serial = self.bus.next_serial()
            self._waiting[message.serial] = (batch, index)
            self.bus.send(message)

    def _on_message(self, message: Message) -> bool:
        waiting = self._waiting.pop(message.reply_serial, None) if message.reply_serial else None
        if waiting is None:
            return False
        batch, index = waiting
        self._answered = time.monotonic()
        error = message.message_type is MessageType.ERROR
        if error and message.error_name == UNKNOWN_OBJECT:
            self.vanished += 1
        batch.answer(index, CallFailed(message.error_name) if error else message.body)
        self._send()
        return True

    def _give_up(self, batch: _Batch) -> None:
        """Fail what ``batch`` still waits for (late answers are then ignored), so that one
        application that stopped answering cannot hold up the walk."""
        stalled = CallFailed(f"no answer in {STALL_TIMEOUT:g} s")
        for serial, (owner, index) in list(self._waiting.items()):
            if owner is batch:
                del self._waiting[serial]
                batch.answer(index, stalled)
        queued = [entry for entry in self._queue if entry[1] is batch]
        self._queue = deque(entry for entry in self._queue if entry[1] is not batch)
        for _, _, index in queued:
            batch.answer(index, stalled)
        self._send()


@dataclass
class _Batch:
    future: asyncio.Future[list[Any]]
    replies: list[Any] = field(default_factory=list)
    remaining: int = 0

    def answer(self, index: int, reply: Any) -> None:
        self.replies[index] = reply
        self.remaining -= 1
        if not self.remaining and not self.future.done():
            self.future.set_result(self.replies)


@dataclass(eq=False)
class Node:
    path: str
    role: int = 0
    name: str = ""
    states: int = 0
    interfaces: frozenset[str] = frozenset()
    child_count: int = 0
    children: list[Node] | None = None  #: None until known
    gone: bool = False  #: vanished while being asked about
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""

    @property
    def role_name(self) -> str:
        return role_name(self.role)

    @property
    def showing(self) -> bool:
        return bool(self.states >> SHOWING & 1)


async def _basics(pipe: Pipe, nodes: list[Node], *, states_known: bool = False) -> None:
    """Name, child count, role, interfaces and (unless known) states of nodes no cache listed."""
    per_node = 4 if states_known else 5
    replies = await pipe.many(call for n in nodes for call in (
        (n.path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "Name"]),
        (n.path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"]),
        (n.path, ACCESSIBLE, "GetRole", "", []),
        (n.path, ACCESSIBLE, "GetInterfaces", "", []),
        (n.path, ACCESSIBLE, "GetState", "", []),
    )[:per_node])
    for i, node in enumerate(nodes):
        got = replies[i * per_node:(i + 1) * per_node]
        if not all(map(_ok, got)):
            node.gone = True
            continue
        node.name, node.child_count = got[0][0].value, got[1][0].value
        node.role, node.interfaces = got[2][0], frozenset(got[3][0])
        if not states_known:
            node.states = _bits(got[4][0])


def _detail_calls(node: Node, gtk: bool) -> list[tuple[str, Call]]:
    """What the XML needs of a node beyond its basics: one question per interface it has (fewer
    where the application's bridge answers several in one, see :attr:`Pipe.gtk`)."""
    p = node.path
    calls: list[tuple[str, Call]] = [("attributes", (p, ACCESSIBLE, "GetAttributes", "", []))]
    if COMPONENT in node.interfaces and gtk:
        calls += [("screen", (p, COMPONENT, "GetPosition", "u", [XY_SCREEN])),
                  ("extents", (p, COMPONENT, "GetExtents", "u", [XY_WINDOW])),
                  ("parent", (p, COMPONENT, "GetPosition", "u", [XY_PARENT]))]
    elif COMPONENT in node.interfaces:  # as the original asks: elsewhere GetExtents' size is not always GetSize's
        calls += [("screen", (p, COMPONENT, "GetPosition", "u", [XY_SCREEN])),
                  ("window", (p, COMPONENT, "GetPosition", "u", [XY_WINDOW])),
                  ("parent", (p, COMPONENT, "GetPosition", "u", [XY_PARENT])),
                  ("size", (p, COMPONENT, "GetSize", "", []))]
    if DOCUMENT in node.interfaces:
        calls += [("locale", (p, DOCUMENT, "GetLocale", "", [])),
                  ("pagecount", (p, PROPERTIES, "Get", "ss", [DOCUMENT, "PageCount"])),
                  ("currentpage", (p, PROPERTIES, "Get", "ss", [DOCUMENT, "CurrentPageNumber"])),
                  ("document", (p, DOCUMENT, "GetAttributes", "", []))]
    if VALUE in node.interfaces and gtk:
        calls.append(("values", (p, PROPERTIES, "GetAll", "s", [VALUE])))
    elif VALUE in node.interfaces:  # one Get each: GetAll of Value makes Chromium's bridge abort
        calls += [(key, (p, PROPERTIES, "Get", "ss", [VALUE, prop])) for key, prop in VALUE_FIELDS]
    if ACTION in node.interfaces:
        calls.append(("actions", (p, ACTION, "GetActions", "", [])))
    if TEXT in node.interfaces:
        calls.append(("text", (p, TEXT, "GetText", "ii", [0, -1])))
    return calls


#: Answers without which a node is left out, with everything below it, as the original walk
#: leaves out a node whose questions raise: it vanished while being walked (a web page
#: re-rendering a clock every second), and half of it would differ from walk to walk.
ESSENTIAL = ("attributes", "screen", "window", "parent", "size", "extents", "document", "actions", "text")


async def _details(pipe: Pipe, nodes: list[Node]) -> None:
    plans = [_detail_calls(n, pipe.gtk) for n in nodes]
    replies = iter(await pipe.many(call for plan in plans for _, call in plan))
    with_actions = []
    for node, plan in zip(nodes, plans):
        got = {key: next(replies) for key, _ in plan}
        if not all(_ok(got[key]) for key in ESSENTIAL if key in got):
            node.gone = True
            continue
        node.attrs = _attributes(node, got)
        if "text" in got:
            node.text = clean_text(got["text"][0])
        if got.get("actions", [[]])[0]:
            with_actions.append((node, got["actions"][0]))
    # GetActions answers localized names ("Click"); the XML has GetName's ("click").
    names = iter(await pipe.many((node.path, ACTION, "GetName", "i", [i])
                                 for node, actions in with_actions for i in range(len(actions))))
    for node, actions in with_actions:
        answers = [next(names) for _ in actions]
        if not all(map(_ok, answers)):
            node.gone = True
            continue
        for (_, description, key_binding), name in zip(actions, answers):
            add_action(node.attrs, name[0], description, key_binding)


def _attributes(node: Node, got: dict[str, Any]) -> dict[str, str]:
    """The element's attributes, in the original walk's order."""
    attrs: dict[str, str] = {"name": clean(node.name or "")}
    for bit, key in STATE_KEYS:
        if node.states >> bit & 1:
            attrs[key] = "true"
    add_pairs(attrs, "attr", got["attributes"][0].items())
    if "extents" in got:
        x, y, width, height = got["extents"][0]
        got = {**got, "window": [x, y], "size": [width, height]}
    if "screen" in got:
        attrs[qname("cp", "screencoord")] = str(tuple(got["screen"]))
        attrs[qname("cp", "windowcoord")] = str(tuple(got["window"]))
        attrs[qname("cp", "parentcoord")] = str(tuple(got["parent"]))
        attrs[qname("cp", "size")] = str(tuple(got["size"]))
    if "locale" in got:
        for key in ("locale", "pagecount", "currentpage"):
            if _ok(got[key]):
                value = got[key][0]
                attrs[qname("doc", key)] = clean(getattr(value, "value", value))
        add_pairs(attrs, "docattr", got["document"][0].items())
    if IMAGE in node.interfaces:
        attrs["image"] = "true"
    if SELECTION in node.interfaces:
        attrs["selection"] = "true"
    values = got["values"][0] if "values" in got and _ok(got["values"]) else {}
    for key, prop in VALUE_FIELDS:
        if key in got and _ok(got[key]):
            attrs[qname("val", key)] = str(got[key][0].value)
        elif prop in values:
            attrs[qname("val", key)] = str(values[prop].value)
    return attrs


async def _fetch_children(pipe: Pipe, parents: list[Node], known: dict[str, Node]) -> None:
    """Children of parents the cache could not answer for (a child count of -1, children it
    lists at index -1, an application without a cache): all of a parent's children in one
    ``GetChildren``, or one ``GetChildAtIndex`` each past :data:`MAX_CHILDREN` or when the two
    disagree. Nodes the cache does know are reused."""
    unsure = [p for p in parents if p.child_count < 0]
    counts = await pipe.many((p.path, PROPERTIES, "Get", "ss", [ACCESSIBLE, "ChildCount"]) for p in unsure)
    for parent, count in zip(unsure, counts):
        parent.child_count = count[0].value if _ok(count) else 0
    few = [p for p in parents if 0 < p.child_count <= MAX_CHILDREN]
    listed = dict(zip(few, await pipe.many((p.path, ACCESSIBLE, "GetChildren", "", []) for p in few)))
    refs: dict[Node, list[Any]] = {}
    for parent, reply in listed.items():
        if _ok(reply) and len(reply[0]) == parent.child_count:
            refs[parent] = [[ref] for ref in reply[0]]
    by_index = [p for p in parents if p not in refs and p.child_count > 0]
    replies = iter(await pipe.many((p.path, ACCESSIBLE, "GetChildAtIndex", "i", [i])
                                   for p in by_index for i in range(min(p.child_count, MAX_CHILDREN))))
    for parent in by_index:
        refs[parent] = [next(replies) for _ in range(min(parent.child_count, MAX_CHILDREN))]
    new = []
    for parent in parents:
        parent.children = []
        for ref in refs.get(parent, ()):
            if not _ok(ref) or ref[0][1] == NULL_PATH:
                continue
            child = known.get(ref[0][1])
            if child is None:
                child = known[ref[0][1]] = Node(ref[0][1])
                new.append(child)
            parent.children.append(child)
    await _basics(pipe, new)


async def _calc_cells(pipe: Pipe, table: Node) -> list[Node]:
    """The showing cells of a Calc sheet, as :func:`showing_cells` chooses them; cells are
    asked whether they show in blocks ahead of the scan (a row at a time until the first showing
    cell, then :data:`ROWS_AHEAD` rows as wide as the widest row so far)."""
    rows, cols = await pipe.many((table.path, PROPERTIES, "Get", "ss", [TABLE, name]) for name in ("NRows", "NColumns"))
    if not (_ok(rows) and _ok(cols)):
        return []
    n_rows, n_cols = rows[0].value, cols[0].value
    cells: dict[tuple[int, int], Node | None] = {}

    async def fetch(keys: list[tuple[int, int]]) -> None:
        keys = [k for k in keys if k not in cells]
        refs = await pipe.many((table.path, TABLE, "GetAccessibleAt", "ii", list(k)) for k in keys)
        for key, ref in zip(keys, refs):
            cells[key] = Node(ref[0][1]) if _ok(ref) and ref[0][1] != NULL_PATH else None
        found = [cells[k] for k in keys if cells[k] is not None]
        states = await pipe.many((n.path, ACCESSIBLE, "GetState", "", []) for n in found if n is not None)
        for node, state in zip(found, states):
            if node is not None:
                node.states = _bits(state[0]) if _ok(state) else 0

    block = await _visible_block(pipe, table)
    if block is not None:
        await fetch(cells_asked(n_rows, n_cols, block, MAX_PREFETCH))

    showing: list[Node] = []
    first_col: int | None = None
    width = row_width = 0
    last_row = -1
    scan = showing_cells(n_rows, n_cols)
    try:
        row, col = next(scan)
        while True:
            if row != last_row:
                width, row_width, last_row = max(width, row_width), 0, row
            if (row, col) not in cells:
                if width and col == first_col:
                    await fetch([(r, c) for r in range(row, min(row + ROWS_AHEAD, n_rows))
                                 for c in range(col, min(col + width + 1, n_cols))])
                else:
                    await fetch([(row, c) for c in range(col, min(col + COLUMNS_AHEAD, n_cols))])
            cell = cells[(row, col)]
            shows = cell is not None and cell.showing
            if shows and cell is not None:
                showing.append(cell)
                row_width += 1
                first_col = col if first_col is None else first_col
            row, col = scan.send(shows)
    except StopIteration:
        pass
    return showing


async def _visible_block(pipe: Pipe, table: Node) -> tuple[int, int, int, int] | None:
    """First row, first column, last row and last column of the cells at the top-left and
    bottom-right corners of a Calc sheet on screen: the block the scan will find showing, asked
    for in one batch instead of guessed ahead (None when the corners do not answer)."""
    extents = await pipe.many([(table.path, COMPONENT, "GetExtents", "u", [XY_SCREEN])])
    if not _ok(extents[0]) or min(extents[0][0][2:]) < 4:
        return None
    x, y, width, height = extents[0][0]
    corners = await pipe.many((table.path, COMPONENT, "GetAccessibleAtPoint", "iiu", [px, py, XY_SCREEN])
                              for px, py in ((x + 1, y + 1), (x + width - 2, y + height - 2)))
    if not all(_ok(c) and c[0][1] != NULL_PATH for c in corners):
        return None
    indexes = await pipe.many((c[0][1], ACCESSIBLE, "GetIndexInParent", "", []) for c in corners)
    if not all(_ok(i) and i[0] >= 0 for i in indexes):
        return None
    places = await pipe.many((table.path, TABLE, member, "i", [i[0]])
                             for i in indexes for member in ("GetRowAtIndex", "GetColumnAtIndex"))
    if not all(_ok(p) and p[0] >= 0 for p in places):
        return None
    first_row, first_column, last_row, last_column = (p[0] for p in places)
    if last_row < first_row or last_column < first_column:
        return None
    return first_row, first_column, last_row, last_column


async def _application(bus: MessageBus, name: str, root_path: str) -> Node:
    """One application's subtree, walked again (up to :data:`REWALKS` times) when nodes vanished
    while it was walked: a page that re-renders a part every second (a clock) would otherwise
    lose that part in one walk of several, where a walk that missed the moment has all of it."""
    address, toolkit = await Pipe(bus, name).many([
        (root_path, ATSPI + "Application", "GetApplicationBusAddress", "", []),
        (root_path, PROPERTIES, "Get", "ss", [ATSPI + "Application", "ToolkitName"])])
    try:
        if not _ok(address):
            raise address
        pipe = Pipe(await MessageBus(bus_address=address[0]).connect(), None)
    except Exception:  # no peer-to-peer connection offered: ask through the bus
        pipe = Pipe(bus, name)
    pipe.gtk = _ok(toolkit) and toolkit[0].value == "gtk"
    try:
        for _ in range(REWALKS):
            vanished = pipe.vanished
            root = await _walk(pipe, root_path)
            if pipe.vanished == vanished:
                break
        return root
    finally:
        if pipe.bus is not bus:
            pipe.bus.disconnect()


async def _walk(pipe: Pipe, root_path: str) -> Node:
    """The application's cache in one call, then only what the cache lacks, level by level down
    to :data:`MAX_DEPTH`. A level's details are asked for as soon as the level is known, while
    the walk goes on below it, so that the application always has questions waiting."""
    known = await _cached_nodes(pipe)
    root = known.get(root_path)
    if root is None:
        root = known[root_path] = Node(root_path)
        await _basics(pipe, [root])
    details = [asyncio.ensure_future(_details(pipe, [root]))]
    try:
        # (node, inside a spreadsheet) of one depth; the root application is at depth 1.
        level, depth = [(root, root.role_name == SPREADSHEET_ROLE)], 1
        while level:
            if depth >= MAX_DEPTH:
                for node, _ in level:
                    node.children = []
                break
            sheets = [node for node, in_calc in level if in_calc and node.role_name == "table"]
            await _fetch_children(pipe, [node for node, _ in level if node.children is None and node not in sheets], known)
            for sheet in sheets:
                sheet.children = await _calc_cells(pipe, sheet)
                await _basics(pipe, sheet.children, states_known=True)
            level = [(child, in_calc or child.role_name == SPREADSHEET_ROLE)
                     for node, in_calc in level for child in node.children or () if not child.gone]
            details.append(asyncio.ensure_future(_details(pipe, [child for child, _ in level])))
            depth += 1
        await asyncio.gather(*details)
    finally:
        for task in details:
            task.cancel()
    return root


async def _cached_nodes(pipe: Pipe) -> dict[str, Node]:
    """Every node the application's cache holds; a node's children are taken from it when it
    lists exactly ``child_count`` of them at indexes 0, 1, ... (None otherwise)."""
    try:
        items = (await pipe.one(CACHE_PATH, CACHE, "GetItems"))[0]
    except CallFailed:  # a toolkit without the cache interface
        return {}
    nodes: dict[str, Node] = {}
    listed: dict[str, list[tuple[int, str]]] = {}
    for ref, _app, parent, index, count, interfaces, name, role, _description, states in items:
        nodes[ref[1]] = Node(ref[1], role, name, _bits(states), frozenset(interfaces), count)
        listed.setdefault(parent[1], []).append((index, ref[1]))
    for path, node in nodes.items():
        children = sorted(listed.get(path, ()))
        if node.child_count >= 0 and [i for i, _ in children] == list(range(node.child_count)):
            node.children = [nodes[p] for _, p in children[:MAX_CHILDREN]]
    return nodes


def _element(node: Node, parent: Any) -> Any:
    if parent is None:
        element = etree.Element(tag(node.role_name), attrib=node.attrs, nsmap=NS)
    else:
        element = etree.SubElement(parent, tag(node.role_name), attrib=node.attrs)
    if node.text:
        element.text = node.text
    for child in node.children or ():
        if not child.gone:
            _element(child, element)
    return element


async def _accessibility_bus() -> MessageBus:
    session = await MessageBus(bus_type=BusType.SESSION).connect()
    try:
        reply = await session.call(Message(destination="org.a11y.Bus", path="/org/a11y/bus",
                                           interface="org.a11y.Bus", member="GetAddress"))
    finally:
        session.disconnect()
    if reply is None or reply.message_type is MessageType.ERROR:
        raise RuntimeError(f"no accessibility bus: {getattr(reply, 'error_name', 'no reply')}")
    return await MessageBus(bus_address=reply.body[0]).connect()


async def _tree() -> Any:
    bus = await _accessibility_bus()
    try:
        registry = Pipe(bus, REGISTRY)
        desktop = Node(ROOT_PATH)
        await _basics(registry, [desktop])
        await _details(registry, [desktop])
        applications = (await registry.one(ROOT_PATH, ACCESSIBLE, "GetChildren"))[0][:MAX_CHILDREN]
        desktop.children = list(await asyncio.gather(*(_application(bus, name, path) for name, path in applications)))
        return _element(desktop, None)
    finally:
        bus.disconnect()


def tree_xml(timeout: float) -> str:
    """The whole desktop's tree; :class:`TimeoutError` after ``timeout`` seconds."""
    return etree.tostring(asyncio.run(asyncio.wait_for(_tree(), timeout)), encoding="unicode")


async def _application_count() -> int:
    bus = await _accessibility_bus()
    try:
        return len((await Pipe(bus, REGISTRY).one(ROOT_PATH, ACCESSIBLE, "GetChildren"))[0])
    finally:
        bus.disconnect()


def registry_problem(timeout: float) -> str | None:
    """Why the AT-SPI registry cannot be walked yet (None once it answers)."""
    try:
        asyncio.run(asyncio.wait_for(_application_count(), timeout))
    except (TimeoutError, asyncio.TimeoutError):
        return "AT-SPI registry does not answer"
    except Exception as exc:
        return f"AT-SPI registry: {exc}"
    return None


def main() -> int:
    sys.stdout.write(tree_xml(float(os.environ.get("SPIDER2V_A11Y_TIMEOUT", "120"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
