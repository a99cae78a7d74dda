# %% fix the misspelt import and the undefined task variable in the terminal
from terminal import focus_terminal, run
focus_terminal(settle=1)
run("sed -i 's/airflow.operators.pyhton/airflow.operators.python/; s/compute >> stor$/compute >> store/' inventory_sync.py")

# %% wait until Airflow has parsed the fixed file, then reload the DAGs page in Chromium
from airflow_dags import wait_parsed
wait_parsed("inventory_sync")

# %% unpause inventory_sync and trigger it
from airflow_dags import trigger, unpause
unpause("inventory_sync")
trigger("inventory_sync")

# %% wait until the run has finished
from airflow_ui import wait_run
print(wait_run("inventory_sync"))

# %%
DONE
