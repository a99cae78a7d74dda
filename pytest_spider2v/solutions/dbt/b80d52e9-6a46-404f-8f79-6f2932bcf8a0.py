# The verbose variant of 0aa56709-3293-5849-ad47-e377f49fd3a0: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 0aa56709-3293-5849-ad47-e377f49fd3a0.py
