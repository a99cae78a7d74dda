# The verbose variant of 699e0c0a (an Astro project served on port 8002): the same steps.
# %% based-on: 699e0c0a-3fdc-4c10-ad9f-c4c9d7a9947b.py
