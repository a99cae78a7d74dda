# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% connect to the crm database
pyautogui.typewrite("psql crm\n", interval=0.02)
time.sleep(1)

# %% load the CSV file
pyautogui.typewrite(
    "\\copy contacts FROM '/home/user/Downloads/new_contacts.csv' WITH (FORMAT csv, HEADER)\n",
    interval=0.01,
)
time.sleep(1)

# %% keep the row with the smallest contact_id per email
pyautogui.typewrite(
    "DELETE FROM contacts a USING contacts b WHERE a.email = b.email AND a.contact_id > b.contact_id;\n",
    interval=0.01,
)
time.sleep(1)

# %% leave psql and wait until it has quit
from terminal import run
run("\\q", process="psql crm")

# %%
DONE
