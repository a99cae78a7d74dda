# The abstract variant of a627dc80 (scaffold the Dagster project dagster-proj): the same steps as
# its twin's solution, which use only what this instruction names (a `pip install dagster
# dagster-webserver` is already satisfied in the environment).
# %% based-on: a627dc80-0cad-4799-8cd3-543af6c9bdda.py
