# The verbose variant of task 5f8601f8-6e90-4d2c-91bb-eb5836ad1d5c: the same workbook, the same checks,
# so the same solution.
# %% based-on: 5f8601f8-6e90-4d2c-91bb-eb5836ad1d5c.py
