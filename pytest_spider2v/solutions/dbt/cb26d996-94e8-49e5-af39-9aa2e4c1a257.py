# The verbose variant of 4b331e9f-7fcf-40d6-aa7b-ad468010f334: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 4b331e9f-7fcf-40d6-aa7b-ad468010f334.py
