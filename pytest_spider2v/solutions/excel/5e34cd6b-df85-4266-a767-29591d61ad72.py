# The verbose variant of task 0acbd372-ca7a-4507-b949-70673120190f: the same workbook, the same checks,
# so the same solution.
# %% based-on: 0acbd372-ca7a-4507-b949-70673120190f.py
