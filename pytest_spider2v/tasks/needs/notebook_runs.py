"""Whether a task runs its notebooks: what their code cells need counts only then.

A notebook is JSON until a kernel runs its cells. A task that opens one in JupyterLab, copies it
into place, clears its outputs or has its code copied into a text file never imports what the
cells import, so a module the image lacks does not stop the task; calling such a task
unrunnable hides a task that works. A task whose notebook does run needs every import of it:
the kernel stops at the first one missing. So the question is not what the notebook imports but
whether anything runs it, and the task says so in four places, read in this order:

1. Its own code: a setup step, a postconfig step, a getter's command or a script the task ships
   executes notebooks (``jupyter nbconvert --execute``, ``jupyter execute``, papermill,
   ``ipython x.ipynb``, nbclient), found by the shell and Python readers.
2. Its evaluation, by what the metric scores. A metric that compares the cells' outputs
   (``compare_notebook_outputs``), counts the cells that ran (``is_jupyter_cell_executed``) or
   compares the saved JSON whole, outputs included (``compare_ipynb_files``), scores what only a
   run leaves behind: the agent must run the notebook, whatever the instruction's words. So does
   an evaluation that reads a file a notebook names (``df.to_csv("result.csv")`` scored by
   ``compare_csv``): the file is what running the notebook writes (a notebook the file only
   feeds counts too; conservative).
3. Its reference solution, written for this project: one that executes a notebook (nbconvert's
   ``--execute``, papermill, the JupyterLab helpers that run cells) shows the route runs it.
   A solution that does not is no evidence of the contrary, since it may reach the result by a
   shorter way than the agent's (writing a CSV without the notebook).
4. Its instruction (:mod:`.instruction`): asking outright to run ("run all cells") keeps the
   imports, since the agent will run them, even where the evaluation would not look. Asking
   for a result ("complete the TODO cells", "fix", "determine") means running code unless the
   evaluation reads only what no run makes, the cells' source (``compare_notebook_cells``) or
   their cleared outputs (``are_jupyter_outputs_cleared``): completing cells scored by their
   source needs no kernel.

Anything else (only opened, copied, evaluated by a file the agent writes that no notebook
names, or by a metric this list does not know, with no word asking for a run) runs nothing: no
step, no metric and no word of the task calls for a kernel. Where there is some sign of a run
but no proof (a result asked and scored by a metric not known to read only the source; a scored
file the notebook may only read) the needs stay. A wrong "runnable" lets the agent meet a kernel
that cannot import and scores it 0 for what the image lacks, read in a run's report as the
agent's failure; a wrong "not runnable" is skipped with its reason named (``spider2v-compat``
lists it) and ``known_needs.yaml`` corrects it. The decision is for all of a task's notebooks
together: a task that runs one of them is taken to run each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from pytest_spider2v.tasks.needs.instruction import asks_for_result, asks_to_run

if TYPE_CHECKING:
    from pytest_spider2v.tasks.model import Task

#: Metrics that score what running a notebook leaves: outputs, execution counts, the saved JSON whole.
RUN_METRICS = frozenset({"compare_notebook_outputs", "is_jupyter_cell_executed", "compare_ipynb_files"})
#: Metrics that score only what needs no run: the cells' source, outputs cleared.
SOURCE_METRICS = frozenset({"compare_notebook_cells", "are_jupyter_outputs_cleared"})
#: What in a reference solution runs a notebook's cells: an executing command or library, or the
#: JupyterLab helpers (``guest/solution_helpers/jupyter_ui.py``) that run cells through the UI.
SOLUTION_RUNS = re.compile(r"nbconvert\b.*--execute|--execute\b.*nbconvert|\bpapermill\b|\bnbclient\b|"
                           r"ExecutePreprocessor|\bjupyter\W+execute\b|\brun_all_cells\s*\(|"
                           r"\brun_first_cell\s*\(|\brun_until\s*\(")


def runs_notebooks(task: Task, executes: bool, notebook_texts: list[str]) -> bool:
    """Whether the task runs its notebooks (see the module's docstring): ``executes`` whether its
    own code executes notebooks, ``notebook_texts`` the notebooks it names, as read."""
    if executes:
        return True
    metrics = _metrics(task)
    if metrics & RUN_METRICS or _reads_what_a_notebook_writes(task, notebook_texts):
        return True
    if _solution_runs(task.solution):
        return True
    if asks_to_run(task.instruction):
        return True
    return asks_for_result(task.instruction) and not (metrics and metrics <= SOURCE_METRICS)


def _metrics(task: Task) -> set[str]:
    func = task.spec.evaluator.func
    return {func} if isinstance(func, str) else set(func)


def _result_files(task: Task) -> Iterator[str]:
    """The names of the files the evaluation's result getters read (their ``path``)."""
    value = task.spec.evaluator.result
    for getter in value if isinstance(value, list) else [value]:
        if getter is None:
            continue
        path = getter.model_dump().get("path")
        for item in path if isinstance(path, list) else [path]:
            if isinstance(item, str) and item:
                yield PurePosixPath(item).name


def _reads_what_a_notebook_writes(task: Task, notebook_texts: list[str]) -> bool:
    """Whether a result getter reads a file a notebook names anywhere in its text (a notebook
    itself excluded: what running it leaves there, the metric says)."""
    names = {name for name in _result_files(task) if not name.endswith(".ipynb")}
    return any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text)
               for name in names for text in notebook_texts)


def _solution_runs(solution: Path | str | None) -> bool:
    if isinstance(solution, Path):
        if not solution.is_file():
            return False
        solution = solution.read_text(encoding="utf-8", errors="replace")
    return solution is not None and SOLUTION_RUNS.search(solution) is not None
