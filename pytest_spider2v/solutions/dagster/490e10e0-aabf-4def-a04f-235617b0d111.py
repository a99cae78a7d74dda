# The verbose variant of 0dff0011 (launch the Dagster web server on port 8004): the same steps.
# %% based-on: 0dff0011-afff-4ab8-ae07-83f5ab95d215.py
