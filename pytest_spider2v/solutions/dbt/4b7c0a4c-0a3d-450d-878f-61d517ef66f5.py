# The verbose variant of cb82ed0a-22b8-46c0-8aee-73548e8c8592: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: cb82ed0a-22b8-46c0-8aee-73548e8c8592.py
