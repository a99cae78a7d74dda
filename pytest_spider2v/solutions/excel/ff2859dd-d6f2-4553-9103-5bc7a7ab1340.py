# The verbose variant of task 0a2e43bf-b26c-4631-a966-af9dfa12c9e5: the same workbook, the same checks,
# so the same solution.
# %% based-on: 0a2e43bf-b26c-4631-a966-af9dfa12c9e5.py
