# The verbose variant of 6664f67f (report the materialization and the check no_null_check through
# Dagster Pipes, materialize, open the asset's checks page): the same steps.
# %% based-on: 6664f67f-4366-4017-b270-b01c896be626.py
