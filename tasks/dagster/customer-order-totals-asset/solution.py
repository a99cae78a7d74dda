# %% focus gedit once it shows definitions.py
import subprocess
for _ in range(150):
    if "definitions.py" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "definitions.py"])
time.sleep(1)

# %% register the new asset: Ctrl+End lands on the closing ")" (gedit hides the final newline), "assets=[customers, orders]," is three lines up; type before its "],"
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=3)
pyautogui.press("end")
pyautogui.press("left", presses=2)
pyautogui.typewrite(", customer_order_totals", interval=0.01)

# %% type the asset above "defs = Definitions(" (four lines up from the last line); gedit copies the previous line's indentation, so each line first selects it (Shift+Home) and types over it
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=4)
pyautogui.press("home")
CODE = '''
@asset(deps=[customers, orders], description="Orders and revenue per customer.")
def customer_order_totals(duckdb: DuckDBResource) -> None:
    with duckdb.get_connection() as conn:
        conn.execute(
            "create or replace table customer_order_totals as "
            "select c.customer_id, c.name, count(o.order_id) as order_count, "
            "coalesce(sum(o.amount), 0) as total_amount "
            "from customers c left join orders o on o.customer_id = c.customer_id "
            "group by c.customer_id, c.name"
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
wait_for("customer_order_totals", roles=("static", "heading", "link", "push button", "section"))
time.sleep(1)

# %% materialize the three assets and wait until the run has finished
from dagster_ui import click, wait_runs_done
click("Materialize all")
wait_runs_done(1)
time.sleep(1)

# %%
DONE
