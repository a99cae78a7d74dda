# The verbose variant of 1137ff65-39d1-423e-bb70-7ef0a34cb90a: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 1137ff65-39d1-423e-bb70-7ef0a34cb90a.py
