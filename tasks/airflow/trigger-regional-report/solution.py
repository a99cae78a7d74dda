# %% unpause regional_sales_report with the switch at the left of its row
from airflow_dags import unpause
unpause("regional_sales_report")

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
