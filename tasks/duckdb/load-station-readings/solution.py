# %% focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% open the database in the duckdb shell
pyautogui.typewrite("duckdb weather.duckdb\n", interval=0.02)
time.sleep(1)

# %% load every monthly file with explicit column types
pyautogui.typewrite(
    "CREATE TABLE readings AS SELECT * FROM read_csv('readings/*.csv', header = true, "
    "columns = {'station_code': 'VARCHAR', 'read_at': 'TIMESTAMP', "
    "'temperature_c': 'DOUBLE', 'humidity_pct': 'INTEGER'});\n",
    interval=0.01,
)
time.sleep(1)

# %% check and leave the shell, then wait until duckdb has closed the file
import subprocess
pyautogui.typewrite("DESCRIBE readings;\n.quit\n", interval=0.02)
for _ in range(100):
    if subprocess.run(["pgrep", "-x", "duckdb"], capture_output=True).returncode != 0:
        break
    time.sleep(0.1)

# %%
DONE
