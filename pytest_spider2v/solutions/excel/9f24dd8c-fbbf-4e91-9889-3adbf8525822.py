# The verbose variant of task 8909d1cb-5877-44c7-a908-9f1875302441: the same workbook, the same checks,
# so the same solution.
# %% based-on: 8909d1cb-5877-44c7-a908-9f1875302441.py
