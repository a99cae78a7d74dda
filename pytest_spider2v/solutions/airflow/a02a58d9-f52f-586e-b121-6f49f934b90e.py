# Turn the dbt project dags/dbt/jaffle_shop into a Cosmos DbtTaskGroup in a DAG jaffle_shop_dag
# that runs at 10:00 every day, and activate it. dags/jaffle_shop_dag.py (open in the editor)
# already holds the settings: CONNECTION_ID (postgres_conn, configured), SCHEMA_NAME, TARGET_NAME,
# DBT_PROJECT_PATH and DBT_EXECUTABLE_PATH (the dbt of the image's dbt_venv); README.md says to
# finish that file. The DAG gets a profile from the connection (Cosmos' Postgres user/password
# mapping), the task group over the project, the schedule "0 10 * * *"; then, once Airflow lists
# it with the project's 13 tasks (3 seeds, 5 models run and tested), its switch in the DAGs list
# activates it, and its first run (the scheduler starts the latest interval at once) is waited for.
# %% complete dags/jaffle_shop_dag.py
from pathlib import Path
dag_file = Path.home() / "projects" / "jaffle_shop_astro" / "dags" / "jaffle_shop_dag.py"
code = '''

from airflow.decorators import dag
from cosmos import DbtTaskGroup, ExecutionConfig, ProfileConfig, ProjectConfig
from cosmos.profiles import PostgresUserPasswordProfileMapping
from pendulum import datetime

profile_config = ProfileConfig(
    profile_name="default",
    target_name=TARGET_NAME,
    profile_mapping=PostgresUserPasswordProfileMapping(conn_id=CONNECTION_ID, profile_args={"schema": SCHEMA_NAME}),
)


@dag(start_date=datetime(2024, 1, 1), schedule="0 10 * * *", catchup=False)
def jaffle_shop_dag():
    DbtTaskGroup(
        group_id="transform_data",
        project_config=ProjectConfig(DBT_PROJECT_PATH),
        profile_config=profile_config,
        execution_config=ExecutionConfig(dbt_executable_path=DBT_EXECUTABLE_PATH),
        default_args={"retries": 2},
    )


jaffle_shop_dag()
'''
dag_file.write_text(dag_file.read_text().rstrip("\n") + "\n" + code)
print(dag_file.read_text())

# %% wait until Airflow has parsed it with its 13 tasks, and reload the DAGs list
from airflow_dags import wait_parsed
wait_parsed("jaffle_shop_dag", tasks=13)

# %% activate jaffle_shop_dag with its switch
from airflow_dags import unpause, wait_parsed
wait_parsed("jaffle_shop_dag", tasks=13)
unpause("jaffle_shop_dag")

# %% wait for its first run (dbt seeds, runs and tests each model)
from airflow_ui import wait_run
print(wait_run("jaffle_shop_dag"))

# %% wait for its first run
from airflow_ui import wait_run
print(wait_run("jaffle_shop_dag"))

# %% wait for its first run
from airflow_ui import wait_run
print(wait_run("jaffle_shop_dag"))

# %% wait for its first run
from airflow_ui import wait_run
print(wait_run("jaffle_shop_dag"))

# %%
DONE
