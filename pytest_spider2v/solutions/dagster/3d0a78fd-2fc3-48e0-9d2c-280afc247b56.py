# The abstract variant of 1c3aaad0 (test the sensor math_sensor with the cursor 123 and launch
# its run): the same steps as its twin's solution, which use only what this instruction names. In
# Dagster 1.12 the sensor's test is "Preview tick result", then "Continue" and "Apply requests &
# commit tick result", which launches the requested run.
# route: gui: run triggered
# %% based-on: 1c3aaad0-5081-4dde-8139-e3be3d0a9bb4.py
