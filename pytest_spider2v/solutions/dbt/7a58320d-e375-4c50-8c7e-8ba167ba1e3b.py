# The verbose variant of 8aa9e870-b0c9-5417-be80-03154e83c7a3: the same data and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 8aa9e870-b0c9-5417-be80-03154e83c7a3.py
