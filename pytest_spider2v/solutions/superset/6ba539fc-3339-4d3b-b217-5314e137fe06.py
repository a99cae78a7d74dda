# The verbose variant of task 4b2cbdfa-28a1-4202-8dc1-74a7e06972ba: the same setup and the same checks, so the same
# solution.
# %% based-on: 4b2cbdfa-28a1-4202-8dc1-74a7e06972ba.py
