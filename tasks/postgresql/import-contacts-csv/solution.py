# %% focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

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

# %% leave psql
pyautogui.typewrite("\\q\n", interval=0.02)
time.sleep(0.5)

# %%
DONE
