# Wrong on purpose: the retries edit lands one line too high: line 17 (timezone = UTC) is overwritten and retries stays 1
# %% based-on: solution.py
# %% replace 4: the retries, on line 17
from gedit import retype_line
retype_line(17, "retries = 3")
