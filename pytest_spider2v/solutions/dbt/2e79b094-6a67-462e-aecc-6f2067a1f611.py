# The verbose variant of 7b81c78d-8c06-4820-bfee-614dd391c920: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 7b81c78d-8c06-4820-bfee-614dd391c920.py
