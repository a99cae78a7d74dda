# The verbose variant of task 4172ea6e-6b77-4edb-a9cc-c0014bd1603b: the same workbook, the same checks,
# so the same solution.
# %% based-on: 4172ea6e-6b77-4edb-a9cc-c0014bd1603b.py
