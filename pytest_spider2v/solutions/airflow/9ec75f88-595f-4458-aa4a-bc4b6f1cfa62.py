# The verbose variant of 93b05252 (two extra links for weather_data_dag): the same steps.
# %% based-on: 93b05252-b8cd-4f23-8850-168dc8107d83.py
