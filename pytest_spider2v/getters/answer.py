"""The ``final_answer`` getter: what the agent answered, for tasks that ask a question.

An agent ends such an episode with DONE carrying its answer (:func:`pytest_spider2v.run.agent.done_with_answer`);
the episode records it, and this getter hands it to the task's metrics like any other state, so a
task folder can ask a question whose answer is text as easily as a DABench question does.
"""

from __future__ import annotations

from collections.abc import Mapping

from pytest_spider2v.registry import getters
from pytest_spider2v.run.agent import answer_of
from pytest_spider2v.run.task_context import TaskContext


@getters.register("final_answer")
def final_answer(ctx: TaskContext, spec: Mapping[str, object]) -> str | None:
    """The text the episode's last action carried (DONE with an answer), or None when the agent
    gave no answer (a bare DONE, FAIL, a limit reached): no answer, not an error."""
    return answer_of(ctx.history[-1]) if ctx.history else None
