# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% open the database
pyautogui.typewrite("sqlite3 ~/Desktop/inventory.db\n", interval=0.02)
time.sleep(1)

# %% restock the products below their reorder level (written with ">": pyautogui types "<" as ">" here)
pyautogui.typewrite("UPDATE products SET qty = qty + 50 WHERE reorder_level > qty;\n", interval=0.02)

# %% leave sqlite3 and wait until it has closed the database
from terminal import run
run(".quit", process="sqlite3 /home/user/Desktop/inventory.db")

# %%
DONE
