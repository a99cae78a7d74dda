"""The astro/docker stand-ins in the airflow image, driven by a real original task's scripts.

Task 57a13efe (trigger workFlow_Echo) sets up with ``astro dev init`` and ``astro dev start``
on the project its zip holds; its eval.sh then addresses the "containers" with ``astro dev
ps``, ``docker exec`` and ``astro dev run`` and runs the DAG with ``astro run``. Here the
task's own init.sh and eval.sh run unchanged in the image, with the agent's part (unpause,
trigger) done by ``astro dev run`` in between: every check of eval.sh must succeed.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from tests.support.environments import environment_of
from tests.support.shared import require, sample

pytestmark = pytest.mark.e2e

TASK = "57a13efe-c008-4bc9-8959-36276115da0b"
PROJECT = "/home/user/projects/workFlow"


@pytest.fixture(scope="module")
def airflow_env(conformance_provider: Provider) -> Iterator[Environment]:
    with environment_of(conformance_provider, "airflow") as environment:
        yield environment


def sh(env: Environment, script: str, timeout: float = 300.0) -> str:
    result = env.execute(["bash", "-c", script], timeout=timeout)
    assert result.returncode == 0, f"{script}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.sample
def test_original_task_scripts_run_on_the_stand_ins(airflow_env: Environment) -> None:
    folder = require(sample("airflow", TASK))
    airflow_env.upload(folder / "workFlow.zip", "/home/user/workFlow.zip")
    airflow_env.upload(folder / "init.sh", "/home/user/init.sh")
    airflow_env.upload(folder / "eval.sh", "/home/user/eval.sh")
    airflow_env.execute(["bash", "/home/user/init.sh"], timeout=300)  # its output goes to /dev/null

    ps = sh(airflow_env, f"cd {PROJECT} && astro dev ps")
    assert "webserver" in ps and "running" in ps, ps
    assert "Airflow" in sh(airflow_env, "curl -sf http://localhost:8080/health && echo Airflow")
    web_id = sh(airflow_env, "docker ps | grep webserver | awk '{print $1}'").strip()
    assert len(web_id) == 12, web_id
    tasks = sh(airflow_env, f"docker exec -i {web_id} airflow tasks list workFlow_Echo")
    assert {"start", "processing", "end"} <= set(tasks.split()), tasks

    agent = "; ".join(f"astro dev run dags {verb} workFlow_Echo" for verb in ("unpause", "trigger"))
    sh(airflow_env, f"cd {PROJECT} && {agent}")
    out = sh(airflow_env, f"bash {shlex.quote('/home/user/eval.sh')}", timeout=600)
    assert "failed" not in out, out
    assert out.split() == ["dag", "active", "succeed", "astro", "run", "dag", "succeed"], out

    include = sh(airflow_env, "readlink -f /usr/local/airflow").strip()
    assert include == PROJECT


@pytest.mark.sample
def test_a_new_project_on_port_8002_replaces_the_running_one(airflow_env: Environment) -> None:
    """Task 29fa5f45's agent part typed into its terminal, then its eval.sh."""
    folder = require(sample("airflow", "29fa5f45-e1c7-45c5-a644-e35c4ebce080"))
    airflow_env.upload(folder / "eval.sh", "/home/user/eval-8002.sh")
    project = "/home/user/projects/astro_Project"
    sh(airflow_env, f"mkdir -p {project} && cd {project} && echo 'FROM quay.io/astronomer/astro-runtime:10.5.0' > Dockerfile"
                    " && echo y | astro dev init && astro config set webserver.port 8002")
    started = sh(airflow_env, f"cd {project} && astro dev start --no-browser")
    assert "Airflow Webserver: http://localhost:8002" in started, started
    out = sh(airflow_env, "bash /home/user/eval-8002.sh")
    assert out.split("\n")[:2] == ["Airflow project creation succeed.", "Airflow webserver running on port 8002 succeed."], out
    assert sh(airflow_env, "readlink -f /usr/local/airflow").strip() == project
    old = sh(airflow_env, f"cd {PROJECT} && astro dev ps")
    assert old.splitlines()[1:] == [], old  # the first project is no longer the running one
