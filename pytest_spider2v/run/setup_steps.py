"""A task's setup steps (its ``config``) and the evaluator's ``postconfig``: run in order, each
looked up by name in :data:`pytest_spider2v.registry.setup_steps`.

A step that fails is the environment's fault, not the agent's: :func:`set_up` reports it as
:class:`SetupFailed`, which a retry may cure on a fresh environment. A step that cannot run here
(:class:`~pytest_spider2v.registry.Unavailable`) and a fault of the environment itself pass
through as they are.
"""

from __future__ import annotations

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.registry import Unavailable, setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.tasks.model import StepSpec


class SetupFailed(RuntimeError):
    """A task's setup step failed (retryable: the next attempt gets a fresh environment)."""


def run_steps(ctx: TaskContext, steps: list[StepSpec]) -> None:
    """Run the steps in order; whatever a step raises propagates. Against an emulator a step that
    only drives the service's web console (its ``console`` meta) is waived, and noted."""
    for step in steps:
        console = setup_steps.entry(step.type).meta.get("console")
        if ctx.emulated and console:
            ctx.waived.append(f"{step.type}: {console}")
            continue
        setup_steps.get(step.type)(ctx, **step.parameters)


def set_up(ctx: TaskContext) -> None:
    """Run the task's setup; a step's own failure becomes :class:`SetupFailed`."""
    try:
        run_steps(ctx, ctx.task.spec.config)
    except (Unavailable, EnvironmentFault):
        raise
    except Exception as exc:
        raise SetupFailed(f"setup failed: {type(exc).__name__}: {exc}") from exc
