"""``--validate``: check the tasks themselves instead of an agent.

Each task gets up to four items, so failures are precise and ``--lf`` reruns only what failed:

* ``[validate-reference]`` its reference solution (``solution.py``) must score 1;
* ``[validate-near-miss]`` every metric that scored the reference run's result 1 must score
  below 1 on each almost-right variant of that result (one value changed, one row dropped, ...:
  :mod:`.near_miss`); a variant still scoring 1 is a lax evaluation, and fails the check unless
  the task is on the errata list as ``lax_evaluator``; a variant the metric raises on is a crash,
  not a catch, and fails the check unless the task's erratum lists it (``near_miss_crashes``). A
  check that tried nothing passes as "not covered", never as all caught. It reuses the reference
  run's fetched results (the two checks of a task run in one process, in order); run alone
  (``-k near-miss``, ``--lf``) it runs the reference solution first;
* ``[validate-wrong]`` its deliberately wrong solution (``wrong_solution.py``) must score 0
  (the evaluator checks the outcome, not merely that something happened); project tasks, and
  tasks whose format makes one (a DABench question: its labels with one sub-answer perturbed);
* ``[validate-reset]`` two resets must give the same first accessibility tree, clocks masked
  (setup is deterministic, so every agent starts from the same state), and the do-nothing
  agent, run from the second reset, must score 0 (the initial state is not a solution);
* ``[validate-noop]`` instead, in an environment without a screen (no tree to compare): the
  do-nothing agent must score 0.

A reference solution that is a GUI route (its header says ``# route: gui: <kind of UI action>``,
:mod:`pytest_spider2v.tasks.gui_routes`) proves with its reference check that the task can be
solved through the screen alone here; the per-app table counts those under "gui route".

A Spider2-V checkout's task gets the reference and reset checks; its reference solution is the
one written here (:data:`~pytest_spider2v.environments.locations.SPIDER2V_SOLUTIONS_DIR`). Where none is written yet the
reference check skips saying so, while a project task without ``solution.py`` fails.

A reference solution works from its own task's instruction. For a task on the errata list whose
defect means the instruction cannot reach the gold (an abstract variant its instruction cannot
solve, an instruction the evaluator contradicts or leaves open, a wrong gold), the reference check
passes when that solution scores what the erratum predicts (its ``reference_score``, below 1),
each metric having judged, showing the erratum; it fails if it scores 1 (the entry is stale), if
it scores anything else, or if a metric raised (a crash scores 0 too, and shows nothing).

The noop episode reuses the reset check's second environment: a reset is the slowest part of a
check (services to start, documents to load), and this saves one per task.

Agents are named, never imported: the checks use whatever is registered as ``oracle``/``noop``.
"""

from __future__ import annotations

import difflib
import math
import operator
import time
from dataclasses import dataclass
from functools import lru_cache

import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.snapshots import load_snapshots
from pytest_spider2v.run.episode import settled
from pytest_spider2v.run.evaluation import Evaluation
from pytest_spider2v.run.lifecycle import TaskRun
from pytest_spider2v.tasks.errata import INSTRUCTION_CANNOT_PASS, Erratum
from pytest_spider2v.tasks.model import Task
from pytest_spider2v.validate.near_miss import NearMisses, Uncovered, try_near_misses
from pytest_spider2v.validate.tree_mask import mask_clocks


@dataclass(frozen=True)
class Check:
    name: str
    agent: str  #: agent that runs the episode
    solution: str | None  #: solution file the agent replays, in the task folder
    expected: float  #: the score the check requires
    same_resets: bool = False  #: first compare the accessibility trees of two resets
    near_misses: bool = False  #: vary the reference run's fetched results instead of judging a score


#: The ``user_properties`` entry of a check that got through its task's setup (to a score, or to
#: both resets' trees): what :mod:`.summary` counts as "set up".
SET_UP = "spider2v_set_up"
#: The ``user_properties`` entry of a reference check that showed its task's erratum: the solution
#: followed the instruction and scored below 1, as the errata list says it must.
ERRATUM_SHOWN = "spider2v_erratum_shown"

#: The ``user_properties`` entry of a reference check whose solution is a GUI route: the kind of
#: UI action it performs (:mod:`pytest_spider2v.tasks.gui_routes`).
GUI_ROUTE = "spider2v_gui_route"
#: The ``user_properties`` entry of a near-miss check: what it tried (:meth:`NearMisses.to_json`).
NEAR_MISSES = "spider2v_near_misses"

REFERENCE = Check("reference", "oracle", "solution.py", 1.0)
NEAR_MISS = Check("near-miss", "oracle", "solution.py", 1.0, near_misses=True)
WRONG = Check("wrong", "oracle", "wrong_solution.py", 0.0)
RESET = Check("reset", "noop", None, 0.0, same_resets=True)
NOOP = Check("noop", "noop", None, 0.0)
CHECKS = (REFERENCE, NEAR_MISS, WRONG, RESET, NOOP)
#: the check a ``--validate`` item runs
CHECK = pytest.StashKey[Check]()
#: The outcome of each task's reference run in this process, by task key: its near-miss check
#: varies the results it fetched.
REFERENCE_OUTCOMES = pytest.StashKey[dict[str, Evaluation]]()


def task_checks(task: Task) -> tuple[Check, ...]:
    """The checks of one task: the reference and its near misses; the wrong solution where the task has one to give
    (a project task must: a missing file fails; a task format may make one; a Spider2-V checkout
    task has none); two resets alike then the do-nothing agent where the environment has a screen,
    else the do-nothing agent alone."""
    wrong = task.layout == "project" or WRONG.solution in task.made_solutions
    return (REFERENCE, NEAR_MISS, *([WRONG] if wrong else []), RESET if _has_screen(task.spec.snapshot) else NOOP)


@lru_cache(maxsize=64)
def _has_screen(snapshot: str) -> bool:
    """An unknown snapshot counts as one with a screen: acquiring it reports what is wrong."""
    known = load_snapshots().get(snapshot)
    return known is None or known.display


def check_task(request: pytest.FixtureRequest, spider2v_check: Check, spider2v_run: TaskRun) -> None:
    """Body of every check: (two resets agree, then) the check's agent gets the expected score."""
    check = spider2v_check
    task = spider2v_run.task
    if check.solution and task.solution is None:
        spider2v_run.skip_if_unavailable()  # a task that cannot run here says why, solution or not
        if task.layout == "spider2v":
            spider2v_run.skip(f"no reference solution written for {task.key} "
                              f"(pytest_spider2v/solutions/{task.app}/{task.id}.py)")
        pytest.fail(f"{check.name}: the task folder has no {check.solution}", pytrace=False)
    if check.same_resets:
        # The extra reset first, then the task's own, in which the episode below runs: one
        # environment at a time (two idle app servers per worker overload a small machine).
        spider2v_run.skip_if_unavailable()
        with spider2v_run.extra_environment() as extra:
            first = _settled_tree(extra.env)
        second = _settled_tree(spider2v_run.context().env)
        mark_set_up(request.node)
        if first != second:  # a slow application may still be arriving: give it time to match
            second = _tree_matching(spider2v_run.context().env, first)
        if first != second:
            diff = difflib.unified_diff(first.splitlines(), second.splitlines(), "first reset", "second reset",
                                        lineterm="", n=1)
            message = "two resets gave different accessibility trees:\n" + "\n".join(list(diff)[:40])
            spider2v_run.fail(message)
    if check.near_misses:
        _check_near_misses(request, spider2v_run)
        return
    outcome = spider2v_run.outcome()
    mark_set_up(request.node)
    if check is REFERENCE:
        request.config.stash.setdefault(REFERENCE_OUTCOMES, {})[task.key] = outcome
        if task.gui_route is not None:
            request.node.user_properties.append((GUI_ROUTE, task.gui_route))
    erratum = task.erratum
    if check is REFERENCE and erratum is not None and erratum.kind in INSTRUCTION_CANNOT_PASS:
        _check_erratum_shown(request, task, erratum, outcome)
        return
    if outcome.score != check.expected:
        who = f"{check.agent} agent" + (f" with {check.solution}" if check.solution else "")
        pytest.fail(f"{check.name}: the {who} should score {check.expected:g}, got {outcome.score:g}: "
                    f"{outcome.detail}", pytrace=False)


def _check_erratum_shown(request: pytest.FixtureRequest, task: Task, erratum: Erratum, outcome: Evaluation) -> None:
    """The reference run of a task whose instruction cannot pass must end as its erratum says:
    the predicted score, from metrics that judged."""
    predicted = erratum.reference_score
    assert predicted is not None, "the errata loader requires reference_score for these kinds"
    listed = f"{task.key} is on the errata list ({erratum.kind}: {erratum.summary})"
    crashed = [m for m in outcome.metrics if m.raised]
    if crashed:
        pytest.fail(f"reference: {listed}, and its reference run should score {predicted:g} as the "
                    f"erratum predicts, but {crashed[0].func} raised {crashed[0].raised}: a crash shows no erratum",
                    pytrace=False)
    if outcome.score >= 1:
        pytest.fail(f"reference: {listed}, yet its reference solution, which follows the instruction, scores 1: the "
                    "erratum no longer holds (pytest_spider2v/tasks/errata.yaml)", pytrace=False)
    if not math.isclose(outcome.score, predicted, abs_tol=1e-4):
        pytest.fail(f"reference: {listed}: its reference run scored {outcome.score:g}, the erratum predicts "
                    f"{predicted:g} (reference_score in pytest_spider2v/tasks/errata.yaml): "
                    f"{outcome.detail}", pytrace=False)
    request.node.user_properties.append((ERRATUM_SHOWN, True))  # it followed the instruction; the defect shows


def _check_near_misses(request: pytest.FixtureRequest, run: TaskRun) -> None:
    """Vary what the reference run fetched; fail on a variant a metric still scores 1, unless
    the errata list already names the task's evaluator as lax, and on a variant a metric raises
    on, unless the task's erratum lists that crash."""
    task = run.task
    outcome = request.config.stash.get(REFERENCE_OUTCOMES, {}).pop(task.key, None)
    if outcome is None:  # the reference check did not run in this process: run its solution here
        outcome = run.outcome()
        mark_set_up(request.node)
    erratum = task.erratum
    if outcome.score < 1:
        if erratum is not None and erratum.kind in INSTRUCTION_CANNOT_PASS:
            why = f"no right result to vary: on the errata list ({erratum.kind})"
            found = NearMisses(uncovered=[Uncovered(m.func, "", why) for m in outcome.metrics])
            request.node.user_properties.append((NEAR_MISSES, found.to_json()))
            run.record.finish("passed", outcome.score, found.summary())
            return  # its reference check shows the erratum
        run.skip(f"near-miss: nothing to vary, the reference solution scored {outcome.score:g} (its check fails)")
    if not outcome.fetched:
        run.skip("near-miss: the reference outcome was read from an earlier record (--resume): nothing fetched to vary")
    found = try_near_misses(outcome.fetched, run.record.directory / "near-misses")
    request.node.user_properties.append((NEAR_MISSES, found.to_json()))
    problems = []
    lax = found.lax
    if lax and not (erratum is not None and erratum.kind == "lax_evaluator"):
        problems.append(f"near-miss: a lax evaluation, {len(lax)} of {len(found.trials)} near misses still scored 1 "
                        "(add the task to pytest_spider2v/tasks/errata.yaml as lax_evaluator, or fix the evaluator):\n"
                        + "\n".join(f"  {trial.describe()}" for trial in lax[:20]))
    explained = erratum.near_miss_crashes if erratum is not None else ()
    crashed = [trial for trial in found.crashed if trial.label not in explained]
    if crashed:
        problems.append(f"near-miss: {len(crashed)} of {len(found.trials)} near misses crashed the metric instead of "
                        "being judged, and a crash is no catch (fix the metric or the maker, or list the variant in "
                        "the task's near_miss_crashes in pytest_spider2v/tasks/errata.yaml, with the evidence):\n"
                        + "\n".join(f"  {trial.describe()}" for trial in crashed[:20]))
    if problems:
        run.fail("\n".join(problems))
    run.record.finish("passed", outcome.score, found.summary())


def mark_set_up(item: pytest.Item) -> None:
    """Record on ``item``'s reports that its check got through the task's setup."""
    if (SET_UP, True) not in item.user_properties:
        item.user_properties.append((SET_UP, True))


def _tree_matching(env: Environment, wanted: str, timeout: float = 30.0) -> str:
    """The masked tree once it equals ``wanted``, or the last read after ``timeout`` s. A tree
    settles when it has not changed for 3 s, which a busy machine can take to start an
    application; waiting for the first reset's tree tells "late" apart from "different"."""
    deadline = time.monotonic() + timeout
    tree = mask_clocks(env.accessibility_tree())
    while tree != wanted and time.monotonic() < deadline:
        time.sleep(1.0)
        tree = mask_clocks(env.accessibility_tree())
    return tree


def _settled_tree(env: Environment) -> str:
    """The masked tree once it has not changed for 3 s (windows still gaining focus, documents
    loading, transient status messages), or the last read after 30 s."""
    return settled(lambda: mask_clocks(env.accessibility_tree()), operator.ne, quiet=3.0, timeout=30.0,
                   interval=0.5)
