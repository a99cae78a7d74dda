# Wrong on purpose: restocks products at their reorder level too (qty <= reorder_level, not qty < reorder_level)
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% open the database
pyautogui.typewrite("sqlite3 ~/Desktop/inventory.db\n", interval=0.02)
time.sleep(1)

# %% restock the products below their reorder level (written with ">": pyautogui types "<" as ">" here)
pyautogui.typewrite("UPDATE products SET qty = qty + 50 WHERE reorder_level >= qty;\n", interval=0.02)

# %% leave sqlite3
pyautogui.typewrite(".quit\n", interval=0.02)
time.sleep(1)

# %%
DONE
