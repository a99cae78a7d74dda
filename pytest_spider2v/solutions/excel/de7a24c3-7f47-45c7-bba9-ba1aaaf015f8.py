# The abstract variant of task 0f0ee112-c8e2-4827-8324-398aa32432e8: the same workbook, the same checks,
# so the same solution.
# %% based-on: 0f0ee112-c8e2-4827-8324-398aa32432e8.py
