# The verbose variant of 57a13efe (trigger workFlow_Echo): the same steps.
# %% based-on: 57a13efe-c008-4bc9-8959-36276115da0b.py
