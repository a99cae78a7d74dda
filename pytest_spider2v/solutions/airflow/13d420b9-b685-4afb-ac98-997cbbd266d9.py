# Show the DAG Dependencies view of the Airflow UI, signed in on the DAGs list: it is an entry of
# the Browse menu in the top bar.
# %% Browse > DAG Dependencies
from airflow_ui import click
click("link", "Browse")
time.sleep(0.5)
click("link", "DAG Dependencies")
time.sleep(3)

# %%
DONE
