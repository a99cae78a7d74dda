# %% fix the misspelt import and the undefined task variable in the terminal
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("sed -i 's/airflow.operators.pyhton/airflow.operators.python/; s/compute >> stor$/compute >> store/' inventory_sync.py\n", interval=0.01)
time.sleep(1)

# %% wait until Airflow has parsed the fixed file, then reload the DAGs page in Chromium
import subprocess
from airflow_ui import api
for _ in range(120):
    try:
        api("dags/inventory_sync")
        if not [e for e in api("importErrors")["import_errors"] if "inventory_sync" in e["filename"]]:
            break
    except Exception:
        pass
    time.sleep(0.5)
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(1)
pyautogui.press("f5")

# %% unpause inventory_sync and trigger it
from airflow_ui import api, click, dag_switch, find
dag_switch("inventory_sync")
for _ in range(60):
    if not api("dags/inventory_sync")["is_paused"]:
        break
    time.sleep(0.5)
_, y = find("link", "inventory_sync")
click("section", "Trigger DAG", near_y=y)
click("push button", "Trigger DAG")

# %% wait until the run has finished
from airflow_ui import wait_run
print(wait_run("inventory_sync"))

# %%
DONE
