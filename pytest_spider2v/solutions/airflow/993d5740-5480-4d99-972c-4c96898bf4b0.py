# The verbose variant of 3e8ddf14 (log out of the Airflow UI): the same steps.
# %% based-on: 3e8ddf14-a503-4ba1-83d0-32b2d91b33bb.py
