# The verbose variant of df2ed595: the same three defaults, set in the table's schema as the
# tutorial's "Edit schema" saves them.
# %% based-on: df2ed595-2627-47e8-be9a-920b8eaa64c8.py
