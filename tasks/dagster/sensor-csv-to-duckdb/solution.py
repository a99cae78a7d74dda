# %% focus gedit once it shows assets.py, go to the end of the file
import subprocess
for _ in range(150):
    if "assets.py" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "assets.py"])
time.sleep(1)
pyautogui.hotkey("ctrl", "end")

# %% type the asset line by line; gedit keeps the previous line's indentation, so each line first selects it (Shift+Home) and types over it
CODE = '''

@asset(description="Sensor readings of all CSV exports.")
def sensor_readings(duckdb: DuckDBResource) -> None:
    with duckdb.get_connection() as conn:
        conn.execute(
            "create or replace table sensor_readings as "
            "select * from read_csv_auto('/home/user/projects/sensor_ingest/data/*.csv')"
        )
'''
for line in CODE[1:].split("\n")[:-1]:
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(line + "\n", interval=0.01)

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
# %% switch to Chromium once the Dagster UI window is there
import subprocess
for _ in range(150):
    if "Chromium" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "Chromium"])
time.sleep(0.5)

# %% reload the definitions and wait for the new asset in the graph
from dagster_ui import click, wait_for
click("Reload definitions")
wait_for("sensor_readings", roles=("static", "heading", "link", "push button", "section"))
time.sleep(1)

# %% materialize it (the button of a graph with one asset says "Materialize") and wait until the run has finished
from dagster_ui import click, wait_runs_done
click("Materialize")
wait_runs_done(1)
time.sleep(1)

# %%
DONE
