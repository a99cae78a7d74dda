# %% bring the workbook's Calc window to the front once it is up
import subprocess
def windows():
    return subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout
for _ in range(150):
    if "price_list.xlsx - LibreOffice Calc" in windows():
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-F", "-a", "price_list.xlsx - LibreOffice Calc"])
time.sleep(1)

# %% File > Save As: a name ending in .csv makes Calc pick the Text CSV filter
import subprocess
def windows():
    return subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout
pyautogui.hotkey("ctrl", "shift", "s")
for _ in range(100):
    if any(line.endswith(" Save") for line in windows().splitlines()):
        break
    time.sleep(0.2)
time.sleep(0.5)
pyautogui.typewrite("price_list.csv", interval=0.02)
pyautogui.press("enter")

# %% confirm the Export Text File options (field delimiter "," and string delimiter '"')
import os, subprocess
for _ in range(100):
    if "Export Text File" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(0.5)
pyautogui.press("enter")
for _ in range(100):
    if os.path.exists("/home/user/Desktop/price_list.csv"):
        break
    time.sleep(0.2)
time.sleep(1)

# %% switch to the terminal and open the inventory database with local file loading
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("mariadb --local-infile=1 -u user -ppassword inventory\n", interval=0.02)
time.sleep(1)

# %% load the CSV, reading quoted fields whole and skipping the header row
pyautogui.typewrite(
    "LOAD DATA LOCAL INFILE '/home/user/Desktop/price_list.csv' INTO TABLE products "
    "FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' IGNORE 1 LINES;\n",
    interval=0.01,
)
time.sleep(1)

# %% leave the client
pyautogui.typewrite("exit\n", interval=0.02)
time.sleep(0.5)

# %%
DONE
