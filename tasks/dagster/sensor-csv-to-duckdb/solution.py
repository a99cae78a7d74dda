# %% focus gedit once it shows assets.py, go to the end of the file
from desktop import focus
focus("assets.py")
pyautogui.hotkey("ctrl", "end")

# %% type the asset line by line, over the indentation gedit copies from the line above
from gedit import type_lines
type_lines('''

@asset(description="Sensor readings of all CSV exports.")
def sensor_readings(duckdb: DuckDBResource) -> None:
    with duckdb.get_connection() as conn:
        conn.execute(
            "create or replace table sensor_readings as "
            "select * from read_csv_auto('/home/user/projects/sensor_ingest/data/*.csv')"
        )
''')

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1)

# %% switch to Chromium once the Dagster UI window is there
from desktop import focus
focus("Chromium", settle=0.5)

# %% reload the definitions and wait for the new asset in the graph
from dagster_assets import reload_until
reload_until("sensor_readings")

# %% materialize it (the button of a graph with one asset says "Materialize") and wait until the run has finished
from dagster_assets import materialize
materialize("Materialize")

# %%
DONE
