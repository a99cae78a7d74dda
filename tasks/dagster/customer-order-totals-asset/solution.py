# %% focus gedit once it shows definitions.py
from desktop import focus
focus("definitions.py")

# %% register the new asset: Ctrl+End lands on the closing ")" (gedit hides the final newline), "assets=[customers, orders]," is three lines up; type before its "],"
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=3)
pyautogui.press("end")
pyautogui.press("left", presses=2)
pyautogui.typewrite(", customer_order_totals", interval=0.01)

# %% type the asset above "defs = Definitions(" (four lines up from the last line) over the indentation gedit copies from the line above
from gedit import type_lines
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=4)
pyautogui.press("home")
type_lines('''
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


''')

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1)

# %% switch to Chromium once the Dagster UI window is there
from desktop import focus
focus("Chromium", settle=0.5)

# %% reload the definitions and wait for the new asset in the graph
from dagster_assets import reload_until
reload_until("customer_order_totals")

# %% materialize the three assets and wait until the run has finished
from dagster_assets import materialize
materialize()

# %%
DONE
