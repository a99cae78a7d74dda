# The verbose variant of 8ecc0ac2-3083-4be0-ace9-43079288d717: the same notebook and evaluator,
# the instruction followed by the tutorial, whose method ("Run All Cells") the abstract one uses.
# %% based-on: 8ecc0ac2-3083-4be0-ace9-43079288d717.py
