# Log out of the Airflow UI: the account menu (the user's initials, AU for Admin User, at the right
# of the top bar) ends with "Log Out".
# %% the account menu, then Log Out
from airflow_ui import click
click("link", "AU")
time.sleep(1)
click("push button", "Log Out", contains=True)
time.sleep(3)

# %%
DONE
