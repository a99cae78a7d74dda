# The verbose variant of 492c2c87-b04a-544a-b5dd-eb808036bf85: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 492c2c87-b04a-544a-b5dd-eb808036bf85.py
