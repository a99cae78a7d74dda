# Wrong on purpose: files the ticket in the General queue instead of Service Desk
# %% based-on: solution.py
# %% replace 2: the form opens for the first queue (Data Platform): switch the Queue to the next one, "General"
from desktop import choose, wait_window
choose(1614, 248, 1)
wait_window("Create a new ticket in General", timeout=60)
time.sleep(2)
