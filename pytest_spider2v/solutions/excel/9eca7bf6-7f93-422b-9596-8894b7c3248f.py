# The verbose variant of task 12382c62-0cd1-4bf2-bdc8-1d20bf9b2371: the same workbook, the same checks,
# so the same solution.
# %% based-on: 12382c62-0cd1-4bf2-bdc8-1d20bf9b2371.py
