# Migrate the Airflow DAG dags/wikipediaPageViews.py (four tasks: copy and unzip an hour of
# Wikipedia page views, write the views of five pages as SQL, run it on MySQL over the connection
# mysql_conn) to Dagster in dagster_migration.py, with the connection as README.md gives it; start
# the Dagster web server from that file, switch the DAG's hourly schedule on in the UI, and launch
# the job from the Launchpad until it succeeds (the five rows are in MySQL's master.pageview_counts).
# %% dagster_migration.py: the DAGs folder as Dagster definitions, with the MySQL connection
from pathlib import Path
Path("/home/user/wikipediaPageViews/dagster_migration.py").write_text('''import os

from airflow.models import Connection
from dagster_airflow import make_dagster_definitions_from_airflow_dags_path

migrated_airflow_definitions = make_dagster_definitions_from_airflow_dags_path(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "dags"),
    connections=[
        Connection(conn_id="mysql_conn", conn_type="mysql", host="localhost",
                   login="user", password="password", port=3306),
    ],
)
''')

# %% in the terminal (in the project, env dagster active): dagster dev from that file, left running
from dagster_ui import answers
from desktop import until
from terminal import focus_terminal, run
focus_terminal()
run("dagster dev -f dagster_migration.py")
until(lambda: answers("http://127.0.0.1:3000/server_info"), 85, "dagster dev on port 3000")

# %% Chromium: Automation lists the schedule; its switch, at the right end of its row (right of its status icon, "missing" while stopped), turns it on
from dagster_ui import goto, graphql, nodes
from desktop import focus, until
focus("Chromium")
goto("http://127.0.0.1:3000/automation")
schedule_row = lambda n: n.getRoleName() == "link" and "wikipediaPageViews_schedule" in (n.name or "")
until(lambda: nodes(schedule_row), 60, "the schedule's row")
time.sleep(2)
(_, row), = nodes(schedule_row)
(_, icon), = nodes(lambda n: n.getRoleName() == "push button" and n.name == "missing")
pyautogui.click(icon.x + icon.width // 2 + 54, row.y + row.height // 2)
states = "{ repositoriesOrError { ... on RepositoryConnection { nodes { schedules { name scheduleState { status } } } } } }"
until(lambda: [s["scheduleState"]["status"] for r in graphql(states)["repositoriesOrError"]["nodes"] for s in r["schedules"]] == ["RUNNING"],
      20, "the schedule to run")
time.sleep(1)

# %% the job's Launchpad: Jobs, wikipediaPageViews, Launchpad, "Launch Run"; wait until the run has finished
from dagster_ui import click, wait_for, wait_runs_done
click("Jobs")
click("wikipediaPageViews", roles=("link",))
click("Launchpad")
time.sleep(3)
click("Launch Run")
runs = wait_runs_done(1, timeout=75)
print(runs)
assert all(r["status"] == "SUCCESS" for r in runs), runs

# %%
DONE
