# The abstract variant of 28467077 (the postgres_conn connection in the Airflow UI): the same steps.
# %% based-on: 28467077-983e-4848-9ba3-75848872ee1e.py
