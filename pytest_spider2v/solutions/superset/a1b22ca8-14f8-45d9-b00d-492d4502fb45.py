# The verbose variant of task 798fac35-b600-420b-9710-e11ac223f77b: the same setup and the same checks, so the same
# solution.
# %% based-on: 798fac35-b600-420b-9710-e11ac223f77b.py
