# The verbose variant of task 04d9aeaf-7bed-4024-bedb-e10e6f00eb7f: the same workbook, the same checks,
# so the same solution.
# %% based-on: 04d9aeaf-7bed-4024-bedb-e10e6f00eb7f.py
