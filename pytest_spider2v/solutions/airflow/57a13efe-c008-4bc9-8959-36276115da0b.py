# Trigger the DAG workFlow_Echo from the Airflow UI: unpause it with the switch of its row, then
# trigger it from the row's actions and wait until the run has finished.
# route: gui: run triggered
# %% unpause workFlow_Echo
from airflow_dags import unpause
unpause("workFlow_Echo")

# %% trigger it from its row, and wait until the run has finished
from airflow_dags import trigger
from airflow_ui import wait_run
trigger("workFlow_Echo")
print(wait_run("workFlow_Echo"))

# %%
DONE
