"""Request Tracker (the ``servicedesk`` image): the ``rt_tickets`` getter.

``rt_tickets`` asks RT's REST 2 API *inside the guest* (``http://localhost:8080/REST/2.0/``,
signed in as root) for the tickets a TicketSQL query finds, and returns them as plain dicts::

    {"id": 3, "Subject": "...", "Status": "resolved", "Queue": "Service Desk", "Owner": "alice",
     "Priority": 50, "Requestors": ["dan.ito@example.com"], "CF.Affected System": ["Printer"],
     "Comments": ["Replaced the fuser unit."], "Correspondence": []}

(``Comments`` and ``Correspondence``, the text of the ticket's comment and reply transactions,
only with ``"history": true``.) The metric ``rt_tickets_match`` checks them against the task's
rules, so that a task states the final ticket state it wants, not the clicks that lead there.
"""

from __future__ import annotations

import json
import logging
from typing import Any, TypedDict

from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext

logger = logging.getLogger(__name__)

DEFAULT_URL = "http://localhost:8080"
DEFAULT_USER = "root"
DEFAULT_PASSWORD = "password"
GETTER_TIMEOUT = 120.0

#: Runs in the guest with the system python3 (standard library only). argv[1] is a JSON object
#: with url, user, password, query, history; prints a JSON list of tickets or {"error": ...}.
#: One search request brings every ticket with its queue, owner, requestors and custom fields.
GUEST_SCRIPT = r"""
import base64, html, http.cookiejar, json, re, sys, urllib.parse, urllib.request
args = json.loads(sys.argv[1])
root = args["url"].rstrip("/")
base = root + "/REST/2.0"
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
headers = {"Accept": "application/json"}
# One web login, then RT's session cookie for every REST call: basic auth would check the
# password hash on each request, which costs far more than the request itself.
login = urllib.parse.urlencode({"user": args["user"], "pass": args["password"]}).encode()
try:
    opener.open(urllib.request.Request(root + "/NoAuth/Login.html", data=login), timeout=60).read()
except Exception:
    pass
def get(path, params=()):
    url = base + path
    if params:
        url += "?" + urllib.parse.urlencode(list(params))
    req = urllib.request.Request(url, headers=headers)
    with opener.open(req, timeout=60) as resp:
        if "json" not in resp.headers.get("Content-Type", ""):
            raise RuntimeError("RT did not answer with JSON (not signed in?) for " + url)
        return json.loads(resp.read().decode("utf-8"))
def pages(path, params=()):
    page = 1
    while True:
        data = get(path, [*params, ("page", page), ("per_page", 100)])
        for item in data.get("items") or []:
            yield item
        if page >= int(float(data.get("pages") or 0)):
            return
        page += 1
def text(att):
    content = att.get("Content") or ""
    try:
        if content and not re.search(r"\s", content) and len(content) % 4 == 0:
            content = base64.b64decode(content, validate=True).decode("utf-8")
    except Exception:
        pass
    if (att.get("ContentType") or "").startswith("text/html"):
        content = html.unescape(re.sub(r"<[^>]+>", " ", content))
    return " ".join(content.split())
FIELDS = [("fields", "Subject,Status,Priority,Queue,Owner,Requestor,CustomFields"),
          ("fields[Queue]", "Name"), ("fields[Owner]", "Name"), ("fields[Requestor]", "EmailAddress,Name")]
try:
    out = []
    for t in pages("/tickets", [("query", args["query"]), ("orderby", "id"), ("order", "ASC"), *FIELDS]):
        ticket = {
            "id": int(t["id"]), "Subject": t.get("Subject") or "", "Status": t.get("Status") or "",
            "Queue": (t.get("Queue") or {}).get("Name", ""), "Owner": (t.get("Owner") or {}).get("Name", ""),
            "Priority": int(t.get("Priority") or 0),
            "Requestors": sorted(r.get("EmailAddress") or r.get("Name") or str(r.get("id"))
                                 for r in t.get("Requestor") or []),
        }
        for cf in t.get("CustomFields") or []:
            ticket["CF." + cf["name"]] = list(cf.get("values") or [])
        if args.get("history"):
            ticket["Comments"], ticket["Correspondence"] = [], []
            for tx in pages("/ticket/%s/history" % t["id"], [("fields", "Type")]):
                kind = {"Comment": "Comments", "Correspond": "Correspondence"}.get(tx.get("Type"))
                if not kind:
                    continue
                parts = [text(a) for a in pages("/transaction/%s/attachments" % tx["id"],
                                                [("fields", "Content,ContentType")])
                         if (a.get("ContentType") or "").startswith(("text/plain", "text/html"))]
                ticket[kind].append(" ".join(p for p in parts if p))
        out.append(ticket)
    print(json.dumps(out))
except Exception as exc:
    print(json.dumps({"error": repr(exc)}))
"""


def getter_arguments(spec: TicketsSpec) -> dict[str, Any]:
    """The guest script's arguments from a getter spec (defaults: the image's root account)."""
    if not spec.get("query"):
        raise ValueError("rt_tickets: the getter needs a TicketSQL 'query'")
    return {
        "url": spec.get("url", DEFAULT_URL),
        "user": spec.get("user", DEFAULT_USER),
        "password": spec.get("password", DEFAULT_PASSWORD),
        "query": spec["query"],
        "history": bool(spec.get("history", False)),
    }


def parse_getter_output(stdout: str) -> list[dict[str, Any]] | None:
    """The tickets the guest script printed, or None (logged) when RT could not be asked."""
    lines = [line for line in stdout.strip().splitlines() if line.strip()]
    if not lines:
        logger.info("rt_tickets: no output from the guest")
        return None
    try:
        data = json.loads(lines[-1])
    except json.JSONDecodeError:
        logger.info("rt_tickets: unreadable output %r", stdout[-500:])
        return None
    if isinstance(data, dict):
        logger.info("rt_tickets: RT could not be asked: %s", data.get("error"))
        return None
    return data


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class TicketsSpec(TypedDict, total=False):
    query: str  # TicketSQL
    url: str
    user: str
    password: str
    history: bool


@getters.register("rt_tickets")
def rt_tickets(ctx: TaskContext, spec: TicketsSpec) -> list[dict[str, Any]] | None:
    """The tickets found by ``spec["query"]`` (TicketSQL), read through REST 2 in the guest."""
    args = getter_arguments(spec)
    result = ctx.env.execute(["python3", "-c", GUEST_SCRIPT, json.dumps(args)], timeout=GETTER_TIMEOUT)
    if not result.ok:
        logger.info("rt_tickets: guest script exited %d: %s", result.returncode, result.stderr[-1000:])
    return parse_getter_output(result.stdout)
