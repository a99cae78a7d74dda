# The abstract variant of task 69694b7a-d3e7-4fa3-b0a3-300fe528a193: the same workbook, the same checks,
# so the same solution.
# %% based-on: 69694b7a-d3e7-4fa3-b0a3-300fe528a193.py
