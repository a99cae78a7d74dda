# The verbose variant of 245c6692 (documentation for the task of task_today): the same steps.
# %% based-on: 245c6692-4f8b-4b7b-9874-7484cbc28df6.py
