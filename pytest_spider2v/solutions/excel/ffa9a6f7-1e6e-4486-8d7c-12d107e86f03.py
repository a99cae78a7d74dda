# The verbose variant of task 0326d92d-d218-48a8-9ca1-981cd6d064c7: the same workbook, the same checks,
# so the same solution.
# %% based-on: 0326d92d-d218-48a8-9ca1-981cd6d064c7.py
