# Wrong on purpose: "fixes" the undefined name by dropping store_levels from the dependency chain, so store_levels runs before compute_levels has produced anything
# %% based-on: solution.py
# %% replace 1: fix the misspelt import, and end the chain at compute instead of fixing its last name
from terminal import focus_terminal, run
focus_terminal(settle=1)
run("sed -i 's/airflow.operators.pyhton/airflow.operators.python/; s/compute >> stor$/compute/' inventory_sync.py")
