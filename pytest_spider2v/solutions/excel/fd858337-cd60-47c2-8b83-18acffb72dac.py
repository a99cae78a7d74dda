# The verbose variant of task 26a8440e-c166-4c50-aef4-bfb77314b46b: the same workbook, the same checks,
# so the same solution.
# %% based-on: 26a8440e-c166-4c50-aef4-bfb77314b46b.py
