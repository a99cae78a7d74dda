# The verbose variant of task 1273e544-688f-496b-8d89-3e0f40aa0606: the same workbook, the same checks,
# so the same solution.
# %% based-on: 1273e544-688f-496b-8d89-3e0f40aa0606.py
