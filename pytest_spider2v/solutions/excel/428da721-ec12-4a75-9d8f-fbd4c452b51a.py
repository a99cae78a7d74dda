# The verbose variant of task 3a7c8185-25c1-4941-bd7b-96e823c9f21f: the same workbook, the same checks,
# so the same solution.
# %% based-on: 3a7c8185-25c1-4941-bd7b-96e823c9f21f.py
