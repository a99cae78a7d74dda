"""Harness speed figures, written to JSON (no model involved).

For a few tasks it measures, per task: reset (restore the snapshot + setup steps until the first
observation), then repeatedly a screenshot, an accessibility tree, and one harness step
(execute a no-op pyautogui action + observe). Prints and writes p50/p95 of each.

    python benchmarks/harness.py [TASK_JSON ...] [--repeat 10] [--output results/harness-figures.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_spider2v.context import TaskContext
from pytest_spider2v.providers import OWNER_ENV, owner_token
from pytest_spider2v.registry import load_extensions, providers
from pytest_spider2v.runner import observe
from pytest_spider2v.scoring import run_steps
from pytest_spider2v.task import load_tasks

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TASKS = sorted(ROOT.glob("tasks/*/*/task.json"))[:3]


def timed(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[0] if len(ordered) == 1 else statistics.quantiles(ordered, n=20, method="inclusive")[18]
    return {"p50": round(statistics.median(ordered), 4), "p95": round(p95, 4),
            "min": round(ordered[0], 4), "max": round(ordered[-1], 4), "n": len(ordered)}


def measure(task_files: list[Path], repeat: int, provider_name: str) -> dict[str, Any]:
    load_extensions()  # setup steps, getters and metrics named by the tasks
    os.environ.setdefault(OWNER_ENV, owner_token(os.getpid()))
    provider = providers.get(provider_name)(owner=os.environ[OWNER_ENV], worker="bench")
    samples: dict[str, list[float]] = {"reset": [], "screenshot": [], "accessibility_tree": [], "step_overhead": []}
    cache = ROOT / "results" / "bench-cache"
    try:
        for path in task_files:
            task = load_tasks(path)[0]
            started = time.perf_counter()
            env = provider.acquire(task.spec.snapshot)
            try:
                run_steps(TaskContext(env, task, cache / task.id), task.spec.config)
                env.screenshot()
                samples["reset"].append(time.perf_counter() - started)
                for _ in range(repeat):
                    samples["screenshot"].append(timed(env.screenshot))
                    samples["accessibility_tree"].append(timed(env.accessibility_tree))
                    samples["step_overhead"].append(
                        timed(lambda: (env.run_python("pyautogui.position()"), observe(env, with_tree=False))))
            finally:
                provider.release(env)
    finally:
        provider.close()
    return {
        "figures_seconds": {name: summary(values) for name, values in samples.items() if values},
        "tasks": [str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p) for p in task_files],
        "repeat": repeat,
        "provider": provider_name,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tasks", nargs="*", type=Path, default=DEFAULT_TASKS, help="task JSON files")
    parser.add_argument("--repeat", type=int, default=10, help="samples per task for per-call figures")
    parser.add_argument("--provider", default="docker")
    parser.add_argument("--output", type=Path, default=ROOT / "results" / "harness-figures.json")
    args = parser.parse_args(argv)
    if not args.tasks:
        parser.error("no task files given and none found under tasks/")
    figures = measure(args.tasks, args.repeat, args.provider)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    print(json.dumps(figures["figures_seconds"], indent=2))
    print(f"written to {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
