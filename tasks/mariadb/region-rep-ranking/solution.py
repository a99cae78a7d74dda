# %% focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% connect to the sales database
pyautogui.typewrite("mariadb -u user -ppassword sales\n", interval=0.02)
time.sleep(1)

# %% create the ranking table from the won deals
pyautogui.typewrite(
    "CREATE TABLE rep_ranking AS SELECT region, rep, won_amount, won_deals, "
    "RANK() OVER (PARTITION BY region ORDER BY won_amount DESC) AS region_rank FROM "
    "(SELECT region, rep, SUM(amount) AS won_amount, COUNT(*) AS won_deals FROM deals "
    "WHERE stage = 'won' GROUP BY region, rep) AS t;\n",
    interval=0.01,
)
time.sleep(1)

# %% leave the client
pyautogui.typewrite("exit\n", interval=0.02)
time.sleep(0.5)

# %%
DONE
