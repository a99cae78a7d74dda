# Create the connection README.md describes, run sql_data_quality, and show the log page of the
# task instance that failed. README.md (~/projects/SQL_Check) gives the connection: id
# sqlite_conn, type SQLite, host /tmp/sqlite.db. The DAG is paused and has no schedule: unpause
# it and trigger it from the DAGs list. Its failed task is read from the run (the red square of
# the grid); its log page is the grid with that run and task selected on the Logs tab.
# %% read the connection from README.md
import re
from pathlib import Path
readme = (Path.home() / "projects" / "SQL_Check" / "README.md").read_text()
print(re.findall(r"Connection (?:Id|Type): .*|Host: .*", readme))

# %% Admin > Connections > Add +
from airflow_ui import new_connection
new_connection()

# %% id sqlite_conn, type Sqlite, host /tmp/sqlite.db, Save
from airflow_ui import save_connection, select_option, type_into
type_into("Connection Id", "sqlite_conn")
select_option("Email", "Sqlite")
type_into("Host", "/tmp/sqlite.db")
print(save_connection("sqlite_conn"))

# %% back to the DAGs list: unpause sql_data_quality
from airflow_dags import unpause
from airflow_ui import click
click("link", "DAGs")
unpause("sql_data_quality")

# %% trigger it from its row and wait until the run has finished
from airflow_dags import trigger
from airflow_ui import wait_run
trigger("sql_data_quality")
print(wait_run("sql_data_quality"))

# %% open the failed task instance's log page
from urllib.parse import quote
from airflow_ui import api
run = api("dags/sql_data_quality/dagRuns?order_by=-execution_date&limit=1")["dag_runs"][0]["dag_run_id"]
failed = [ti["task_id"] for ti in api(f"dags/sql_data_quality/dagRuns/{quote(run)}/taskInstances")["task_instances"]
          if ti["state"] == "failed"]
print(run, failed)
pyautogui.hotkey("ctrl", "l")
pyautogui.typewrite(f"localhost:8080/dags/sql_data_quality/grid?dag_run_id={quote(run, safe='')}"
                    f"&task_id={failed[0]}&tab=logs\n", interval=0.01)
time.sleep(5)

# %%
DONE
