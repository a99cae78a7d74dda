# Wrong on purpose: loads only the first day's CSV file instead of all of them
# %% based-on: solution.py
# %% replace 2: type the asset line by line; gedit keeps the previous line's indentation, so each line first selects it (Shift+Home) and types over it
CODE = '''

@asset(description="Sensor readings of all CSV exports.")
def sensor_readings(duckdb: DuckDBResource) -> None:
    with duckdb.get_connection() as conn:
        conn.execute(
            "create or replace table sensor_readings as "
            "select * from read_csv_auto('/home/user/projects/sensor_ingest/data/readings_2024-06-01.csv')"
        )
'''
for line in CODE[1:].split("\n")[:-1]:
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(line + "\n", interval=0.01)
