# The verbose variant of task 65551792-4c32-4904-983d-7c68c189b474: the same workbook, the same checks,
# so the same solution.
# %% based-on: 65551792-4c32-4904-983d-7c68c189b474.py
