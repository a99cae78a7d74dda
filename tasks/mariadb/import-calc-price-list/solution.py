# %% bring the workbook's Calc window to the front once it is up
from desktop import focus
focus("price_list.xlsx - LibreOffice Calc", whole=True)

# %% File > Save As: a name ending in .csv makes Calc pick the Text CSV filter
from desktop import save_as
save_as("price_list.csv")

# %% confirm the Export Text File options (field delimiter "," and string delimiter '"')
from desktop import wait_file, wait_window
wait_window("Export Text File", timeout=20)
time.sleep(0.5)
pyautogui.press("enter")
wait_file("/home/user/Desktop/price_list.csv", timeout=20)
time.sleep(1)

# %% switch to the terminal and open the inventory database with local file loading
from terminal import focus_terminal
focus_terminal(settle=1)
pyautogui.typewrite("mariadb --local-infile=1 -u user -ppassword inventory\n", interval=0.02)
time.sleep(1)

# %% load the CSV, reading quoted fields whole and skipping the header row
pyautogui.typewrite(
    "LOAD DATA LOCAL INFILE '/home/user/Desktop/price_list.csv' INTO TABLE products "
    "FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' IGNORE 1 LINES;\n",
    interval=0.01,
)
time.sleep(1)

# %% leave the client and wait until it has quit
from terminal import run
run("exit", process="mariadb --local-infile=1")

# %%
DONE
