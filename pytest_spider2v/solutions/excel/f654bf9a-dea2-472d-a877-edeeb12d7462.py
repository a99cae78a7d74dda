# The abstract variant of task 106f0830-4734-4ada-8eb1-7031e49380e3: the same workbook, the same checks,
# so the same solution.
# %% based-on: 106f0830-4734-4ada-8eb1-7031e49380e3.py
