# The verbose variant of 8ff98608-8e0e-526e-9413-d744554ba708: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 8ff98608-8e0e-526e-9413-d744554ba708.py
