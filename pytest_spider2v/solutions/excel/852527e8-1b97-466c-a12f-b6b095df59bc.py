# The abstract variant of task 140d48aa-cf99-4b6a-91fb-072db5aed74c: the same workbook, the same checks,
# so the same solution.
# %% based-on: 140d48aa-cf99-4b6a-91fb-072db5aed74c.py
