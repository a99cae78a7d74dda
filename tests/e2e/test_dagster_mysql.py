"""MySQL in the dagster image, as the original VM of the dagster tasks had it (issue 38): the
server is up when the environment is, before any setup step; root signs in through the socket
(`sudo mysql`, the tasks' init scripts); an account the task makes reaches it over TCP from the
Airflow MySQL provider's hook (their DAGs); `SELECT ... INTO OUTFILE` writes to
/var/lib/mysql-files (their eval scripts). On the image without MariaDB the first check fails
(no `mysql`), on one without the boot start the first query does (no server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.environments.provider import Provider
from tests.support.environments import environment_of

pytestmark = pytest.mark.e2e

INIT = """\
create user 'user'@'localhost' identified by 'password';
grant create, alter, drop, insert, update, index, delete, select, references, reload, file on *.* to 'user'@'localhost';
create database master;
create table master.pageview_counts (title varchar(255), views int, datetime varchar(255));
"""

#: What a migrated DAG's MySqlOperator does: the provider's hook over the connection the task names.
HOOK = """\
from airflow.models import Connection
from airflow.providers.mysql.hooks.mysql import MySqlHook
hook = MySqlHook(connection=Connection(conn_id="mysql_conn", conn_type="mysql", host="localhost",
                                       login="user", password="password", port=3306), schema="master")
hook.run("delete from pageview_counts; insert into pageview_counts values ('Apple', 46, '2024050208');"
         "insert into pageview_counts values ('Amazon', 7, '2024050208');")
print(hook.get_records("select count(*) from pageview_counts")[0][0])
"""


@pytest.fixture(scope="module")
def dagster_env(conformance_provider: Provider) -> Iterator[Environment]:
    with environment_of(conformance_provider, "dagster") as environment:
        yield environment


def test_mysql_serves_root_the_dags_and_the_eval_scripts(dagster_env: Environment) -> None:
    env = dagster_env
    assert env.execute(["which", "mysql"]).returncode == 0, "no mysql client in the dagster image"
    init = env.execute(["bash", "-c", f"sudo -n mysql <<'SQL'\n{INIT}SQL"])
    assert init.returncode == 0, init.stderr  # the server was up without a service start
    hook = env.execute(["bash", "-c", f"AIRFLOW_HOME=/tmp/airflow-e2e /opt/dagster/bin/python - <<'PY'\n{HOOK}PY"])
    assert hook.returncode == 0, hook.stderr[-2000:]
    assert hook.stdout.split()[-1] == "2"
    export = env.execute(["bash", "-c", "mysql -ppassword -e \"select * into outfile '/var/lib/mysql-files/pv.csv' "
                                        "from master.pageview_counts order by title asc\" && sudo -n cat /var/lib/mysql-files/pv.csv"])
    assert export.returncode == 0, export.stderr
    assert export.stdout == "Amazon\t7\t2024050208\nApple\t46\t2024050208\n"
