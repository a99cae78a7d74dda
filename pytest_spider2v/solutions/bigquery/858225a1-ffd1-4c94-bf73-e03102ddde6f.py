# The verbose variant of ba3a37bb: the same table, the same check.
# %% based-on: ba3a37bb-df35-5267-9de4-995ea58953a2.py
