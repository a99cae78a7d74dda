# The verbose variant of 950f4d46: the same dataset to delete, the same check.
# %% based-on: 950f4d46-c41c-49d0-b120-33ba722d82fd.py
