# The abstract variant of task 85b592ba-91aa-46ac-8c84-a809655c945c: the same workbook, the same checks,
# so the same solution.
# %% based-on: 85b592ba-91aa-46ac-8c84-a809655c945c.py
