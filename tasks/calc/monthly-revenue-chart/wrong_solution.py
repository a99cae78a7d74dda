# Wrong on purpose: charts the whole table, so the Costs column becomes a second series next to Revenue
# %% based-on: solution.py
# %% replace 2: select the whole table (A1:C13) through the Name Box (Ctrl+Shift+F5)
from desktop import name_box
name_box("A1:C13")
