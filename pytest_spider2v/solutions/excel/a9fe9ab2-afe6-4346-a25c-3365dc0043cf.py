# The verbose variant of task 035f41ba-6653-43ab-aa63-c86d449d62e5: the same workbook, the same checks,
# so the same solution.
# %% based-on: 035f41ba-6653-43ab-aa63-c86d449d62e5.py
