# The verbose variant of task 97dd78c1-4ba3-4bfd-bbd4-c938532dbcc6: the same workbook, the same checks,
# so the same solution.
# %% based-on: 97dd78c1-4ba3-4bfd-bbd4-c938532dbcc6.py
