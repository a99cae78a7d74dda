# The verbose variant of a02a58d9 (the jaffle_shop dbt project as a Cosmos task group): the same steps.
# %% based-on: a02a58d9-f52f-586e-b121-6f49f934b90e.py
