# The verbose variant of 1471e2d8-7f3a-4e1c-b049-1d0f0d57d344: the same project and evaluator, the
# instruction followed by the tutorial, whose steps the abstract variant's solution takes.
# %% based-on: 1471e2d8-7f3a-4e1c-b049-1d0f0d57d344.py
