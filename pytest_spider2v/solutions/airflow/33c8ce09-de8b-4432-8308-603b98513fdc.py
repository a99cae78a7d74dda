# Show the first DAG of the DAGs list in graph view: open the DAG from its name in the first
# row of the list, then the Graph tab of its page.
# %% open the first DAG of the list
from airflow_ui import api, click
first = sorted(d["dag_id"] for d in api("dags?only_active=true")["dags"])[0]
click("link", first)
time.sleep(2)

# %% its Graph tab
from airflow_ui import click
click("page tab", "Graph")
time.sleep(3)

# %%
DONE
