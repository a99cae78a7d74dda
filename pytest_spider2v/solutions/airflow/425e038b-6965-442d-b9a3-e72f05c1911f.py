# The verbose variant of 13d420b9 (show the DAG Dependencies view): the same steps.
# %% based-on: 13d420b9-b685-4afb-ac98-997cbbd266d9.py
