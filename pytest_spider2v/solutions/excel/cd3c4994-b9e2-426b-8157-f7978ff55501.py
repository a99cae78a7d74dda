# The abstract variant of task a55f6898-e5f6-444c-a6ef-217a67e7c64b: the same workbook, the same checks,
# so the same solution.
# %% based-on: a55f6898-e5f6-444c-a6ef-217a67e7c64b.py
