# %% unpause regional_sales_report with the switch at the left of its row
from airflow_ui import api, dag_switch
dag_switch("regional_sales_report")
for _ in range(60):
    if not api("dags/regional_sales_report")["is_paused"]:
        break
    time.sleep(0.5)

# %% open the trigger menu of the row and choose "Trigger DAG w/ config"
from airflow_ui import click
click("section", "Trigger DAG")
click("link", "Trigger DAG w/ config")

# %% set the region parameter to APAC and trigger the run
from airflow_ui import click, type_into
type_into("region", "APAC")
time.sleep(0.3)
click("push button", "Trigger")

# %% wait until the run has finished
from airflow_ui import wait_run
print(wait_run("regional_sales_report"))

# %%
DONE
