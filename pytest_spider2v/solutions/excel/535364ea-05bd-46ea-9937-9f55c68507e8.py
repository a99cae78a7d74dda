# The abstract variant of task 1f44ec32-00b4-430f-a41d-adfd160ba9fc: the same workbook, the same checks,
# so the same solution.
# %% based-on: 1f44ec32-00b4-430f-a41d-adfd160ba9fc.py
