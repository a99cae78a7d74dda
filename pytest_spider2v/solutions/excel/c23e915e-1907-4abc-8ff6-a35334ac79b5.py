# The verbose variant of task b6e9778c-11b3-455f-b720-655048787484: the same workbook, the same checks,
# so the same solution.
# %% based-on: b6e9778c-11b3-455f-b720-655048787484.py
