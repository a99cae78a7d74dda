# The verbose variant of task 72e02b39-3a4a-47ae-bd0a-de8ca9ae3368: the same setup and the same checks, so the same
# solution.
# %% based-on: 72e02b39-3a4a-47ae-bd0a-de8ca9ae3368.py
