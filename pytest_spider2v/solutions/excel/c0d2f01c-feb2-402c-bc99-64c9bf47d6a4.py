# The verbose variant of task 4de54231-e4b5-49e3-b2ba-61a0bec721c0: the same workbook, the same checks,
# so the same solution.
# %% based-on: 4de54231-e4b5-49e3-b2ba-61a0bec721c0.py
