# Wrong on purpose: triggers low_stock_alert before the Variable exists (the run fails) and creates the Variable afterwards without running the DAG again
# %% based-on: solution.py
# %% insert-before 1: trigger low_stock_alert right away
from airflow_dags import trigger
trigger("low_stock_alert")

# %% insert-before 1: wait until the run has finished (it fails: the Variable is missing)
from airflow_ui import wait_run
print(wait_run("low_stock_alert"))

# %% drop 3-4: the DAG is not triggered again once the Variable exists
