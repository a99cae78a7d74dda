"""The superset image's ``docker compose`` stand-in, driven by a real original task's scripts.

Task 4b2cbdfa (enable CSV upload for database SpiderDatabase) sets up with ``docker compose -f
docker-compose-image-tag.yml up --detach`` in ~/projects/superset, waits for ``Init Step 4/4``
in ``docker compose logs``, signs in as admin/admin through the REST API on :8088 and registers
``postgresql://superset:superset@db:5432/superset`` (Superset tests the connection first, so
this needs PostgreSQL as ``db``, its credentials and the driver). Its init.sh and eval.sh run
unchanged; the agent's part (switch the upload on) is one API call in between.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from tests.support.environments import environment_of
from tests.support.shared import require, sample

pytestmark = pytest.mark.e2e

TASK = "4b2cbdfa-28a1-4202-8dc1-74a7e06972ba"
PROJECT = "/home/user/projects/superset"
LOGIN = ("curl -sf -X POST http://localhost:8088/api/v1/security/login -H 'Content-Type: application/json' "
         "-d '{\"username\": \"admin\", \"password\": \"admin\", \"provider\": \"db\"}' | jq -r .access_token")


@pytest.fixture(scope="module")
def superset_env(conformance_provider: Provider) -> Iterator[Environment]:
    with environment_of(conformance_provider, "superset") as environment:
        yield environment


def sh(env: Environment, script: str, timeout: float = 300.0) -> str:
    result = env.execute(["bash", "-c", script], timeout=timeout)
    assert result.returncode == 0, f"{script}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.sample
def test_original_task_scripts_run_on_the_compose_stand_in(superset_env: Environment) -> None:
    folder = require(sample("superset", TASK))
    superset_env.upload(folder / "init.sh", "/home/user/init.sh")
    superset_env.upload(folder / "eval.sh", "/home/user/eval.sh")
    superset_env.execute(["bash", "/home/user/init.sh"], timeout=400)  # its output goes to /dev/null

    assert "Init Step 4/4 [Complete]" in sh(superset_env, f"cd {PROJECT} && docker compose logs")
    assert sh(superset_env, "curl -sf http://localhost:8088/health") == "OK"
    ps = sh(superset_env, "docker ps")
    assert "superset_app" in ps and "superset_db" in ps, ps
    token = sh(superset_env, LOGIN).strip()
    assert token not in ("", "null"), "admin/admin did not sign in"
    databases = sh(superset_env, f"curl -sf -H 'Authorization: Bearer {token}' http://localhost:8088/api/v1/database/")
    assert "SpiderDatabase" in databases, databases  # init.sh's connection to db:5432 was accepted

    db_id = sh(superset_env, f"curl -sf -H 'Authorization: Bearer {token}' http://localhost:8088/api/v1/database/ "
                             "| jq '.result[] | select(.database_name == \"SpiderDatabase\") | .id'").strip()
    assert "failed" in sh(superset_env, "bash /home/user/eval.sh")
    sh(superset_env, f"curl -sf -X PUT -H 'Authorization: Bearer {token}' -H 'Content-Type: application/json' "
                     f"-d '{{\"allow_file_upload\": true}}' http://localhost:8088/api/v1/database/{db_id}")
    assert sh(superset_env, "bash /home/user/eval.sh").strip() == "Enable uploading succeed"


def test_cp_and_exec_reach_the_superset_db_container(superset_env: Environment) -> None:
    sh(superset_env, f"cd {PROJECT} && docker compose -f docker-compose-image-tag.yml up --detach")
    sh(superset_env, "printf 'create table games (genre text); insert into games values (%s);\\n' \"'Puzzle'\" "
                     "> /home/user/games.sql && cd /home/user && docker cp games.sql superset_db:/games.sql")
    sh(superset_env, "docker exec -t superset_db psql -U superset -f /games.sql")
    rows = sh(superset_env, "PGPASSWORD=superset psql -h db -U superset -d superset -Atc 'select genre from games'")
    assert rows.strip() == "Puzzle"


def test_compose_down_stops_superset_and_up_brings_it_back(superset_env: Environment) -> None:
    sh(superset_env, f"cd {PROJECT} && docker compose -f docker-compose-image-tag.yml down")
    assert not superset_env.execute(["curl", "-sf", "http://localhost:8088/health"]).ok
    assert not superset_env.execute(["/usr/lib/postgresql/15/bin/pg_isready", "-q", "-h", "127.0.0.1"]).ok
    sh(superset_env, f"cd {PROJECT} && docker compose -f docker-compose-image-tag.yml up -d")
    assert sh(superset_env, "curl -sf http://localhost:8088/health") == "OK"
