# %% in the terminal (open in ~/data): import the CSV into sales.db as table returns
import subprocess
from desktop import until
from terminal import focus_terminal
focus_terminal(settle=1)
pyautogui.typewrite("sqlite3 sales.db '.import --csv /home/user/Desktop/returns.csv returns' && sqlite3 sales.db 'SELECT COUNT(*) FROM returns' && echo IMPORTED\n", interval=0.01)
count = ["sqlite3", "/home/user/data/sales.db", "SELECT COUNT(*) FROM returns"]
until(lambda: subprocess.run(count, capture_output=True, text=True).stdout.strip() not in ("", "0"), 10, "the returns table")
time.sleep(0.5)

# %% focus Chromium
from desktop import focus
focus("Chromium", settle=0.5)

# %% SQL Lab: SELECT * FROM returns
from superset_sqllab import run_query
from superset_ui import sqllab
sqllab()
run_query("SELECT * FROM returns ")

# %% Save > Save dataset "returns": "Save & explore" creates the dataset (id 3) and opens it in a new tab
from superset_sqllab import save_dataset
save_dataset("returns")
time.sleep(3)

# %% Explore on the new dataset (id 3) as a pie chart: dimension reason, metric SUM(refund)
from superset_ui import explore
explore('{"datasource":"3__table","viz_type":"pie","groupby":["reason"],"metric":{"expressionType":"SIMPLE",'
        '"column":{"column_name":"refund"},"aggregate":"SUM","label":"SUM(refund)"}}')

# %% Save: name the chart "Refunds by Reason"
from superset_ui import save_chart
save_chart("Refunds by Reason")

# %%
DONE
