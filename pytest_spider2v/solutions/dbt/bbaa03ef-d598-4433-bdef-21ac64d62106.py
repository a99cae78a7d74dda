# The verbose variant of 49f981ee-f793-5e27-9a53-083d66934ea1: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 49f981ee-f793-5e27-9a53-083d66934ea1.py
