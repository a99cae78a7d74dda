# The verbose variant of 1c3aaad0 (test the sensor math_sensor with the cursor 123 and launch
# its run): the same steps. Its tutorial's "Test Sensor", "Evaluate" and "Open in Launchpad" ->
# "Launch Run" are, in Dagster 1.12, "Preview tick result", "Continue" and "Apply requests &
# commit tick result", which launches the requested run.
# %% based-on: 1c3aaad0-5081-4dde-8139-e3be3d0a9bb4.py
