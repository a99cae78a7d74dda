# The abstract variant of task 26eb0940-814f-4d12-9bd6-8c0d85748fac: the same workbook, the same checks,
# so the same solution.
# %% based-on: 26eb0940-814f-4d12-9bd6-8c0d85748fac.py
