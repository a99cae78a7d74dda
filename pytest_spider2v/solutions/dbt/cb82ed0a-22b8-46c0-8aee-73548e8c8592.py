# Declare freshness for the source table "orders" of ~/projects/analytics: an error once it is more
# than 5 hours old. models/schema.yml declares the source "analytics" but no tables; the orders
# model stamps every row with CURRENT_TIMESTAMP as run_at, so run_at is when its data was loaded.
# schema.yml is opened in gedit from the terminal (in the project folder), the table typed in
# under the source's last line, saved and closed; then `dbt run` and `dbt source freshness` are
# typed into the terminal.
# route: gui: source freshness declared
# %% in the terminal, open models/schema.yml in gedit
from terminal import focus_terminal
from gedit import open_file
focus_terminal()
open_file("models/schema.yml")

# %% under "database: analytics", the table orders, loaded at run_at, an error after 5 hours
from gedit import select_text, type_lines
select_text("database: analytics")
pyautogui.press("end")
pyautogui.press("enter")
type_lines("""
    tables:
      - name: orders
        loaded_at_field: run_at
        freshness:
          error_after:
            count: 5
            period: hour
""")

# %% save and close
from gedit import save_and_close
save_and_close("schema.yml")

# %% rebuild the models, so that orders is loaded now: dbt run, typed into the terminal
from terminal import focus_terminal, run
focus_terminal()
run("dbt run", process="dbt run")

# %% check the declaration: the source is fresh right after the run
from terminal import run
run("dbt source freshness", process="dbt source freshness")
