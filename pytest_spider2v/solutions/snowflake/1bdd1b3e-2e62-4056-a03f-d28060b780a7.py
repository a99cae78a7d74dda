# The verbose variant of 7d40baa0: the same database, table and check.
# %% based-on: 7d40baa0-75c8-4aa2-baea-c8007b311b08.py
