# The verbose variant of task 1de60575-bb6e-4c3d-9e6a-2fa699f9f197: the same workbook, the same checks,
# so the same solution.
# %% based-on: 1de60575-bb6e-4c3d-9e6a-2fa699f9f197.py
