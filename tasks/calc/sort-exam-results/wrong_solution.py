# Wrong on purpose: sorts by Total ascending (lowest first) instead of descending
# %% based-on: solution.py
# %% replace 3: Data > Sort Ascending (the second item of the Data menu)
from desktop import menu
menu("d", 1)
