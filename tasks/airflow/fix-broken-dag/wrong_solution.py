# Wrong on purpose: "fixes" the undefined name by dropping store_levels from the dependency chain, so store_levels runs before compute_levels has produced anything
# %% based-on: solution.py
# %% replace 1: fix the misspelt import and the undefined task variable in the terminal
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1)
pyautogui.typewrite("sed -i 's/airflow.operators.pyhton/airflow.operators.python/; s/compute >> stor$/compute/' inventory_sync.py\n", interval=0.01)
time.sleep(1)
