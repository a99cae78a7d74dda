# The verbose variant of task 4217a260-ddf2-4600-9e5f-e3a90b4d862e: the same setup and the same checks, so the same
# solution.
# %% based-on: 4217a260-ddf2-4600-9e5f-e3a90b4d862e.py
