# The abstract variant of task 091e73b3-8cf9-45e9-848c-ab990aa9cd6f: the same workbook, the same checks,
# so the same solution.
# route: gui: cells formatted
# %% based-on: 091e73b3-8cf9-45e9-848c-ab990aa9cd6f.py
