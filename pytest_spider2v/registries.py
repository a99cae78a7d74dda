"""The project-wide registries. Built-in and third-party extensions fill them on import."""

from __future__ import annotations

from typing import Any, Callable

from .registry import Registry

#: ``fn(ctx: TaskContext, **parameters) -> None``: a task ``config`` / ``postconfig`` step.
setup_steps: Registry[Callable[..., None]] = Registry("setup step")
#: ``fn(ctx: TaskContext, spec: dict) -> value``: brings state to the host for a metric.
getters: Registry[Callable[..., Any]] = Registry("getter")
#: ``fn(result, expected, **options) -> float`` (or ``fn(result, **options)``): pure scoring.
metrics: Registry[Callable[..., float]] = Registry("metric")
#: ``factory(settings: AgentSettings) -> Agent``.
agents: Registry[Callable[..., Any]] = Registry("agent")
#: ``factory(owner: str, worker: str, **options) -> Provider`` (see ``pytest_spider2v.providers``).
providers: Registry[Callable[..., Any]] = Registry("provider")
