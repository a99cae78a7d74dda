# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

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

# %% leave the client and wait until it has quit
from terminal import run
run("exit", process="mariadb -u user")

# %%
DONE
