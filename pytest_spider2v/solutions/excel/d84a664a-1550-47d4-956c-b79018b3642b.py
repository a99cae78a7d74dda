# The verbose variant of task 1d17d234-e39d-4ed7-b46f-4417922a4e7c: the same workbook, the same checks,
# so the same solution.
# route: gui: sheet added and cells merged
# %% based-on: 1d17d234-e39d-4ed7-b46f-4417922a4e7c.py
