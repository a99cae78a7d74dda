# The verbose variant of task 1954cced-e748-45c4-9c26-9855b97fbc5e: the same workbook, the same checks,
# so the same solution.
# %% based-on: 1954cced-e748-45c4-9c26-9855b97fbc5e.py
