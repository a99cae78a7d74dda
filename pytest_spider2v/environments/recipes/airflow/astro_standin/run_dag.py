"""``astro run DAG_ID``: run a DAG once, in process, and print each task's result.

The real command runs ``dag.test()`` in a container of the project image; here the same runs
with the image's Airflow in the project's environment (``python -m astro_standin.run_dag``),
so the run is recorded as a manual run in the metadata database, as task scripts expect.
"""

from __future__ import annotations

import os
import sys


def summary(dag_id: str, run_state: str | None, task_states: dict[str, str | None]) -> tuple[list[str], int]:
    """The lines printed after the run and the exit status (0 only when the run succeeded)."""
    lines = [f"Task {task}: {state or 'none'}" for task, state in task_states.items()]
    if run_state == "success":
        lines.append(f"Completed running the DAG {dag_id}. 🚀")
        return lines, 0
    failed = [task for task, state in task_states.items() if state in ("failed", "upstream_failed")]
    detail = f": {', '.join(failed)} failed" if failed else ""
    lines.append(f"Error: the DAG {dag_id} finished in state {run_state or 'unknown'}{detail}")
    return lines, 1


def main(argv: list[str]) -> int:
    from airflow.models import DagBag

    dag_id = argv[0]
    bag = DagBag(dag_folder=os.environ.get("AIRFLOW__CORE__DAGS_FOLDER"), include_examples=False)
    if dag_id not in bag.dags:
        for path, error in bag.import_errors.items():
            print(f"Import error in {path}:\n{error}", file=sys.stderr)
        print(f"Error: DAG {dag_id} not found in {bag.dag_folder}", file=sys.stderr)
        return 1
    print(f"Running {dag_id}...", flush=True)
    run = bag.get_dag(dag_id).test()
    states = {}
    for ti in sorted(run.get_task_instances(), key=lambda ti: (ti.start_date is None, ti.start_date or 0, ti.task_id)):
        key = ti.task_id if ti.map_index < 0 else f"{ti.task_id}[{ti.map_index}]"
        states[key] = ti.state
    lines, status = summary(dag_id, run.state, states)
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
