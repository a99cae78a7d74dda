# The verbose variant of task 1e8df695-bd1b-45b3-b557-e7d599cf7597: the same workbook, the same checks,
# so the same solution.
# %% based-on: 1e8df695-bd1b-45b3-b557-e7d599cf7597.py
