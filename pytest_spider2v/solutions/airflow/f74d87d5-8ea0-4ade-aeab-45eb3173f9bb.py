# The verbose variant of 33c8ce09 (the first DAG in graph view): the same steps.
# %% based-on: 33c8ce09-de8b-4432-8308-603b98513fdc.py
