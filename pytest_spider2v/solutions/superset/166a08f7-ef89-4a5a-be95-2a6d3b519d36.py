# The verbose variant of task 03039241-75d5-409d-9676-b1306b17871d: the same setup and the same checks, so the same
# solution.
# %% based-on: 03039241-75d5-409d-9676-b1306b17871d.py
