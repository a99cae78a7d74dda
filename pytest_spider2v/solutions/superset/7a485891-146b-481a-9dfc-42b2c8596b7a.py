# The verbose variant of task 86d91add-e9c8-416f-b385-38c9934afa7a: the same setup and the same checks, so the same
# solution.
# %% based-on: 86d91add-e9c8-416f-b385-38c9934afa7a.py
