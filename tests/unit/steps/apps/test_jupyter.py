"""The JupyterLab setup step's parameter handling (no Docker, no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_spider2v.registry import check_parameters, setup_steps
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps import jupyter
from pytest_spider2v.testing.factories import make_context
from pytest_spider2v.testing.fakes import FakeEnvironment
from tests.support.shared import REPO

TASKS = REPO / "tasks" / "jupyter"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("analysis.ipynb", "analysis.ipynb"),
        ("  analysis.ipynb ", "analysis.ipynb"),
        ("projects/sales/report.ipynb", "projects/sales/report.ipynb"),
        ("./projects//sales/report.ipynb", "projects/sales/report.ipynb"),
        ("/home/user/projects/report.ipynb", "projects/report.ipynb"),
        ("~/Desktop/notes.ipynb", "Desktop/notes.ipynb"),
        ("data.csv", "data.csv"),
    ],
)
def test_lab_path_is_relative_to_the_root(path: str, expected: str) -> None:
    assert jupyter.lab_path(path) == expected


@pytest.mark.parametrize("path", ["", "   ", "/home/user", "/home/user/", "/etc/passwd", "../x.ipynb", "a/../../x.ipynb",
                                  "/home/username/x.ipynb", None, 3])
def test_lab_path_rejects_paths_outside_the_root(path: object) -> None:
    with pytest.raises(StepError):
        jupyter.lab_path(path)  # type: ignore[arg-type]


def test_lab_path_with_another_root() -> None:
    assert jupyter.lab_path("/srv/nb/a.ipynb", root_dir="/srv/nb/") == "a.ipynb"
    with pytest.raises(StepError):
        jupyter.lab_path("/home/user/a.ipynb", root_dir="/srv/nb")


def test_notebook_url_quotes_each_segment() -> None:
    assert jupyter.notebook_url("my notes/Q1 #2.ipynb") == "http://localhost:8888/lab/tree/my%20notes/Q1%20%232.ipynb"
    assert jupyter.notebook_url("a.ipynb", port="8890") == "http://localhost:8890/lab/tree/a.ipynb"


@pytest.mark.parametrize("port", [0, -1, 70000])
def test_notebook_url_rejects_bad_ports(port: int) -> None:
    with pytest.raises(StepError):
        jupyter.notebook_url("a.ipynb", port=port)


def test_step_is_registered_with_its_parameters() -> None:
    fn = setup_steps.get("jupyterlab_open_notebook")
    assert fn is jupyter.jupyterlab_open_notebook
    assert check_parameters(fn, 1, {"path": "a.ipynb", "kernel": False, "timeout": 30, "port": 8888}) is None
    assert check_parameters(fn, 1, {"notebook": "a.ipynb"}) is not None
    assert check_parameters(fn, 1, {}) is not None


def test_bad_parameters_fail_before_the_browser_starts() -> None:
    env = FakeEnvironment()
    ctx = make_context(env)
    with pytest.raises(StepError):
        jupyter.jupyterlab_open_notebook(ctx, path="/etc/hosts")
    with pytest.raises(StepError):
        jupyter.jupyterlab_open_notebook(ctx, path="a.ipynb", timeout=0)
    assert env.calls == []  # nothing launched, no browser reached


class FakePage:
    """A page whose ready check answers from a script of states."""

    def __init__(self, states: list[object]) -> None:
        self.states = states
        self.calls: list[list[object]] = []
        self.focused = 0

    def evaluate(self, script: str, arg: list[object] | None = None) -> object:
        if script == jupyter._FOCUS_JS:
            self.focused += 1
            return None
        self.calls.append(arg or [])
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]


def test_wait_until_ready_needs_a_stable_ready_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jupyter, "STABLE_SECONDS", 0.0)
    monkeypatch.setattr(jupyter.time, "sleep", lambda s: None)
    page = FakePage(["kernel starting", True, "kernel busy", True])
    jupyter.wait_until_ready(page, "a.ipynb", True, timeout=5)  # type: ignore[arg-type]
    assert page.calls[0] == ["a.ipynb", True]
    assert len(page.calls) == 2


def test_the_document_is_given_the_keyboard_focus_until_it_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """JupyterLab sometimes leaves the focus on the file browser after loading: the step gives it
    to the document, and the ready state must then hold with the focus there."""
    monkeypatch.setattr(jupyter, "STABLE_SECONDS", 0.0)
    monkeypatch.setattr(jupyter.time, "sleep", lambda s: None)
    page = FakePage([jupyter._NOT_FOCUSED, "kernel busy", jupyter._NOT_FOCUSED, True])
    jupyter.wait_until_ready(page, "a.ipynb", True, timeout=5)  # type: ignore[arg-type]
    assert page.focused == 2 and len(page.calls) == 4
    assert "'" + jupyter._NOT_FOCUSED + "'" in jupyter._READY_JS


def test_wait_until_ready_reports_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jupyter.time, "sleep", lambda s: None)
    page = FakePage(["kernel starting"])
    with pytest.raises(StepError, match="kernel starting"):
        jupyter.wait_until_ready(page, "a.ipynb", True, timeout=0.01)  # type: ignore[arg-type]


@pytest.mark.parametrize("task", sorted(p.name for p in TASKS.iterdir() if (p / "task.json").is_file()))
def test_tasks_open_a_notebook_they_ship(task: str) -> None:
    spec = json.loads((TASKS / task / "task.json").read_text())
    assert spec["snapshot"] == "jupyter"
    steps = spec["config"]
    assert {"type": "execute", "parameters": {"command": ["spider2v-service", "start", "jupyter"]}} in steps
    opened = [s["parameters"]["path"] for s in steps if s["type"] == "jupyterlab_open_notebook"]
    assert len(opened) == 1
    copied = {s["parameters"]["dest"] for s in steps if s["type"] == "copyfile_from_host_to_guest"}
    assert "/home/user/" + jupyter.lab_path(opened[0]) in copied
    notebook = json.loads((TASKS / task / Path(opened[0]).name).read_text())
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize(("line", "expected"), [
    ("source /home/user/anaconda3/etc/profile.d/conda.sh && conda activate jupyter && "
     "jupyter lab /home/user/Desktop/notebook_1.ipynb", ["/home/user/Desktop/notebook_1.ipynb"]),
    ("jupyter-lab --port 8888 --no-browser /home/user/Desktop && echo started", ["8888", "/home/user/Desktop"]),
    ("jupyter lab", []),
    ("jupyter notebook x.ipynb", []),
])
def test_launched_words_are_the_arguments_of_jupyter_lab(line: str, expected: list[str]) -> None:
    assert jupyter.launched_words(line) == expected


def test_launch_of_jupyter_lab_waits_for_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_spider2v.steps import builtin

    waited: list[str] = []
    monkeypatch.setattr(builtin, "LAUNCH_WAITS", [(p, lambda ctx, line: waited.append(line))
                                                 for p, _ in builtin.LAUNCH_WAITS])
    env = FakeEnvironment()
    commands = [["bash", "-c", "jupyter lab /home/user/Desktop/a.ipynb"], ["gedit", "/home/user/notes.txt"]]
    for command in commands:
        builtin.launch(make_context(env), command)
    assert [call.args[0] for call in env.calls_to("launch")] == commands
    assert waited == ["bash -c jupyter lab /home/user/Desktop/a.ipynb"]
