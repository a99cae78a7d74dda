"""Guest helpers for Airflow reference solutions, built on :mod:`airflow_ui`: the steps on the
DAGs list that solutions take the same way. Wait until Airflow has parsed a DAG file (the DAG is
listed, with its tasks, and no import error names its file), reload the page to see it, unpause
a DAG with its switch and wait until Airflow has recorded that, trigger a DAG from its row.

The REST API is only asked whether what was done in the UI has taken effect. A solution cell
that runs ``from airflow_dags import trigger`` gets this module, and :mod:`airflow_ui` and
:mod:`desktop` that it uses, shipped with it by the oracle agent (see
:mod:`pytest_spider2v.agents.solution_helpers`).
"""

import time

import pyautogui
from airflow_ui import api, click, dag_switch, dag_switch_on, find
from desktop import focus, until


def parsed(dag_id, tasks=None):
    """True once Airflow lists ``dag_id`` (with ``tasks`` tasks, when given) and reports no
    import error for a file named after it."""
    try:
        api(f"dags/{dag_id}")
        if tasks is not None and len(api(f"dags/{dag_id}/tasks")["tasks"]) != tasks:
            return False
        return not [e for e in api("importErrors")["import_errors"] if dag_id in e["filename"]]
    except Exception:  # not listed yet (404), or the API is busy
        return False


def wait_parsed(dag_id, tasks=None, timeout=80.0):
    """Wait until Airflow has parsed the DAG file of ``dag_id`` (see :func:`parsed`), then
    reload the DAGs page in Chromium (F5) to show it."""
    until(lambda: parsed(dag_id, tasks), timeout, f"Airflow to parse {dag_id}", every=0.5)
    focus("Chromium")
    pyautogui.press("f5")


def unpause(dag_id, timeout=30.0):
    """Click the switch at the left of ``dag_id``'s row and wait until Airflow has it unpaused.
    A click on a page still loading is refused (its request lacks the form's token) and the
    page turns the switch back off: then it is clicked again, as a person would."""
    def outcome():
        if not api(f"dags/{dag_id}")["is_paused"]:
            return "unpaused"
        return None if dag_switch_on(dag_id) else "refused"

    deadline = time.monotonic() + timeout
    while True:
        dag_switch(dag_id)
        time.sleep(1)
        left = max(1.0, deadline - time.monotonic())
        if until(outcome, left, f"{dag_id} to be unpaused", every=0.5) == "unpaused":
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"Airflow refused to unpause {dag_id}")


def trigger(dag_id):
    """Trigger ``dag_id`` from its row in the DAGs list: the row's "Trigger DAG" menu, then its
    "Trigger DAG" entry."""
    _, y = find("link", dag_id)
    click("section", "Trigger DAG", near_y=y)
    click("push button", "Trigger DAG")
