# The verbose variant of task 42e0a640-4f19-4b28-973d-729602b5a4a7: the same workbook, the same checks,
# so the same solution.
# %% based-on: 42e0a640-4f19-4b28-973d-729602b5a4a7.py
