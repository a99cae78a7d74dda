# Wrong on purpose: stg_payments keeps every payment, also the failed and refunded ones (no status = 'success' filter)
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% model folders, and gedit on the staging model
pyautogui.typewrite("mkdir -p models/staging models/marts && gedit models/staging/stg_payments.sql &\n", interval=0.02)
import subprocess
for _ in range(150):
    if "stg_payments.sql" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% write the staging view and save it
pyautogui.typewrite(
    "{{ config(materialized='view') }}\n"
    "select payment_id, order_id,\n"
    "cast(paid_at as date) as payment_date,\n"
    "lower(method) as method,\n"
    "amount_cents / 100.0 as amount\n"
    "from {{ ref('raw_payments') }}\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)

# %% close gedit and open the daily revenue model from the terminal
import subprocess
pyautogui.hotkey("ctrl", "q")
time.sleep(1)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(0.5)
pyautogui.typewrite("gedit models/marts/daily_revenue.sql &\n", interval=0.02)
for _ in range(150):
    if "daily_revenue.sql" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% write the daily revenue table, save, and close gedit
pyautogui.typewrite(
    "{{ config(materialized='table') }}\n"
    "select payment_date,\n"
    "count(*) as payment_count,\n"
    "sum(amount) as revenue\n"
    "from {{ ref('stg_payments') }}\n"
    "group by payment_date\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
pyautogui.hotkey("ctrl", "q")
time.sleep(1)

# %% declare the tests in models/schema.yml, typed into cat, which keeps the YAML indentation exact
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(0.5)
pyautogui.typewrite(
    "cat > models/schema.yml\n"
    "version: 2\n"
    "models:\n"
    "  - name: stg_payments\n"
    "    columns:\n"
    "      - name: payment_id\n"
    "        data_tests: [unique, not_null]\n"
    "  - name: daily_revenue\n"
    "    columns:\n"
    "      - name: payment_date\n"
    "        data_tests: [unique, not_null]\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)

# %% build seed, models and tests, and wait until dbt has finished
import subprocess
pyautogui.typewrite("dbt build\n", interval=0.02)
def running():
    return subprocess.run(["pgrep", "-f", "bin/dbt" + " build"], capture_output=True).returncode == 0
for _ in range(50):
    if running():
        break
    time.sleep(0.1)
for _ in range(600):
    if not running():
        break
    time.sleep(0.5)

# %%
DONE
