# The verbose variant of ac312309: the same view, the same checks.
# %% based-on: ac312309-d501-493b-9c1b-fac7f4b568a6.py
