# The verbose variant of 8ecc0ac2-3083-4be0-ace9-43079288d717: the same notebook and evaluator,
# the instruction followed by the tutorial (its "Run All Cells" and the toolbar's restart-and-run-all
# leave every cell run alike).
# %% based-on: 8ecc0ac2-3083-4be0-ace9-43079288d717.py
