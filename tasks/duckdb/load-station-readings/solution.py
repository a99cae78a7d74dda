# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

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
from terminal import run
run("DESCRIBE readings;\n.quit", process="duckdb weather.duckdb")

# %%
DONE
