"""Request Tracker (servicedesk family): the login step's parameters, the ticket getter's
arguments and output parsing, and the ticket-matching metric. No Docker needed."""

from __future__ import annotations

import json

import pytest

import pytest_spider2v.getters.apps.servicedesk as rt_getter
import pytest_spider2v.metrics.apps.servicedesk as sd
import pytest_spider2v.steps.apps.servicedesk as step_module
from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.registry import check_parameters, getters, metrics, setup_steps
from pytest_spider2v.steps.apps.servicedesk import start_page_url
from pytest_spider2v.testing.factories import make_context
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.shared import REPO

TASKS = REPO / "tasks" / "request-tracker"

TICKETS = [
    {"id": 2, "Subject": "Nightly database backup job failed", "Status": "new", "Queue": "Data Platform",
     "Owner": "bob", "Priority": 100, "Requestors": ["erin.walsh@example.com"],
     "CF.Affected System": ["Data Warehouse"]},
    {"id": 3, "Subject": "Printer on the third floor jams on every job", "Status": "resolved",
     "Queue": "Service Desk", "Owner": "alice", "Priority": 50, "Requestors": ["dan.ito@example.com"],
     "CF.Affected System": ["Printer"], "Comments": ["Replaced the fuser unit."], "Correspondence": []},
]


# -- rt_webui_init ---------------------------------------------------------------------------------
def test_step_is_registered_with_its_parameters():
    fn = setup_steps.get("rt_webui_init")
    ok = {"listening_port": 9222, "url": "http://localhost:8080", "page": "/Ticket/Display.html?id=3",
          "user": "root", "password": "password", "wait_for": "table.ticket-list"}
    assert check_parameters(fn, 1, ok) is None
    assert check_parameters(fn, 1, {}) is None
    assert check_parameters(fn, 1, {"urls": ["x"]}) is not None


@pytest.mark.parametrize(("url", "page", "expected"), [
    ("http://localhost:8080", None, "http://localhost:8080/"),
    ("http://localhost:8080/", "", "http://localhost:8080/"),
    ("http://localhost:8080", "/Ticket/Display.html?id=3", "http://localhost:8080/Ticket/Display.html?id=3"),
    ("http://localhost:8080/", "Search/Results.html?Query=id%3E0", "http://localhost:8080/Search/Results.html?Query=id%3E0"),
    ("http://localhost:8080/rt", "/Ticket/Create.html", "http://localhost:8080/rt/Ticket/Create.html"),
])
def test_start_page_url(url, page, expected):
    assert start_page_url(url, page) == expected


@pytest.mark.parametrize(("url", "page"), [
    ("localhost:8080", None),
    ("ftp://localhost/", None),
    ("http://localhost:8080", "http://elsewhere.example/"),
])
def test_start_page_url_rejects(url, page):
    with pytest.raises(ValueError):
        start_page_url(url, page)


def test_scripts_are_functions_of_the_page():
    # Both run through page.evaluate / wait_for_function, which need a function expression.
    assert step_module.LOGIN_SCRIPT.lstrip().startswith("async (creds) =>")
    assert step_module.SETTLED_SCRIPT.lstrip().startswith("() =>")


# -- rt_tickets getter --------------------------------------------------------------------------------
def test_getter_arguments_defaults_and_overrides():
    assert rt_getter.getter_arguments({"query": "id = 3"}) == {
        "url": "http://localhost:8080", "user": "root", "password": "password", "query": "id = 3", "history": False}
    args = rt_getter.getter_arguments({"query": "id > 10", "history": True, "user": "bob", "password": "pw",
                                "url": "http://127.0.0.1:8080"})
    assert args["history"] is True and args["user"] == "bob" and args["url"] == "http://127.0.0.1:8080"
    with pytest.raises(ValueError):
        rt_getter.getter_arguments({})


def test_parse_getter_output():
    assert rt_getter.parse_getter_output(json.dumps(TICKETS) + "\n") == TICKETS
    assert rt_getter.parse_getter_output("noise\n[]\n") == []
    assert rt_getter.parse_getter_output("") is None
    assert rt_getter.parse_getter_output('{"error": "HTTPError 401"}') is None
    assert rt_getter.parse_getter_output("Traceback ...") is None


def test_guest_script_compiles():
    compile(rt_getter.GUEST_SCRIPT, "<guest>", "exec")


def test_getter_runs_the_guest_script():
    env = FakeEnvironment(replies=[ExecResult(0, json.dumps(TICKETS[:1]), "")])
    assert getters.get("rt_tickets")(make_context(env), {"query": "id = 2"}) == TICKETS[:1]
    (command,) = env.commands
    assert command[:2] == ["python3", "-c"] and json.loads(command[3])["query"] == "id = 2"


# -- rt_tickets_match metric ----------------------------------------------------------------------------
@pytest.mark.parametrize(("actual", "rule", "ok"), [
    ("Service Desk", "service  desk", True),
    ("Service Desk", "Data Platform", False),
    (100, 100, True),
    (100, "100", True),
    (50, "High", False),
    (["dan.ito@example.com"], "Dan.Ito@example.com", True),
    (["a@x", "b@x"], ["b@x", "a@x"], True),
    (["a@x", "b@x"], ["a@x"], False),
    ([], [], True),
    (["Replaced the fuser unit."], {"contains": "fuser UNIT"}, True),
    ([], {"contains": "fuser"}, False),
    ("Printer jam", {"contains": "jam"}, True),
    (["x"], {"not_contains": "y"}, True),
    (["y z"], {"not_contains": "y"}, False),
    ("open", {"in": ["new", "open"]}, True),
    ("stalled", {"in": ["new", "open"]}, False),
    ([], {"count": 0}, True),
    (["reply"], {"count": 0}, False),
])
def test_field_matches(actual, rule, ok):
    assert sd.field_matches(actual, rule) is ok


def test_field_matches_unknown_rule():
    with pytest.raises(ValueError):
        sd.field_matches("x", {"regex": "x"})


def test_match_exact_and_subset():
    metric = metrics.get("rt_tickets_match")
    rules = {"tickets": [{"id": 3, "Status": "resolved", "Comments": {"contains": "fuser"}},
                         {"Queue": "Data Platform", "Owner": "bob", "Priority": 100}]}
    assert metric(TICKETS, rules) == 1.0
    assert metric(TICKETS, {"tickets": rules["tickets"][:1]}) == 0.0  # exact by default: one ticket too many
    assert metric(TICKETS, {"tickets": rules["tickets"][:1], "exact": False}) == 1.0
    assert metric(None, rules) == 0.0
    assert metric([], {"tickets": []}) == 1.0


def test_match_needs_distinct_tickets():
    metric = metrics.get("rt_tickets_match")
    both = {"tickets": [{"Requestors": {"contains": "example.com"}}, {"Status": "resolved"}], "exact": True}
    assert metric(TICKETS, both) == 1.0  # ticket 2 for the first, ticket 3 for the second
    same = {"tickets": [{"Status": "resolved"}, {"Status": "resolved"}], "exact": False}
    assert metric(TICKETS, same) == 0.0


def test_match_missing_field_fails():
    metric = metrics.get("rt_tickets_match")
    assert metric(TICKETS[:1], {"tickets": [{"Comments": {"count": 0}}]}) == 0.0


# -- the family's tasks --------------------------------------------------------------------------------
def task_files():
    return sorted(TASKS.glob("*/task.json"))


@pytest.mark.parametrize("path", task_files(), ids=lambda p: p.parent.name)
def test_tasks_use_the_family_consistently(path):
    task = json.loads(path.read_text(encoding="utf-8"))
    assert task["snapshot"] == "servicedesk"
    assert "request-tracker" in task["related_apps"] and "chromium" in task["related_apps"]
    assert task["tags"][0] == "it_service_management"
    steps = [s["type"] for s in task["config"]]
    assert steps[:3] == ["execute", "google_chrome_browser", "rt_webui_init"]
    assert task["config"][0]["parameters"]["command"] == ["spider2v-service", "start", "rt"]
    for step in task["config"]:
        if step["type"] == "rt_webui_init":
            assert check_parameters(setup_steps.get("rt_webui_init"), 1, step["parameters"]) is None
            start_page_url(step["parameters"].get("url", "http://localhost:8080"), step["parameters"].get("page"))
    assert task["evaluator"]["func"] == "rt_tickets_match"
    rt_getter.getter_arguments(task["evaluator"]["result"])
    verbose = (path.parent / "verbose_instruction.txt").read_text(encoding="utf-8")
    numbered = [line for line in verbose.splitlines() if line.split(".", 1)[0].isdigit()]
    assert len(numbered) == task["action_number"]
    assert (path.parent / "wrong_solution.py").read_text(encoding="utf-8").startswith("# Wrong on purpose: ")
