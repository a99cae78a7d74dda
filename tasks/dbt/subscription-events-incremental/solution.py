# %% focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% the price list becomes a seed; open the new model in gedit
import subprocess
pyautogui.typewrite(
    "cp ~/Downloads/plans.csv seeds/plans.csv && mkdir -p models/marts && gedit models/marts/fct_events.sql &\n",
    interval=0.02,
)
for _ in range(150):
    if "fct_events.sql" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% write the incremental model, save it and close gedit
import subprocess
pyautogui.typewrite(
    "{{ config(materialized='incremental', unique_key='event_id') }}\n"
    "select e.event_id, e.account_id, e.event_type, e.event_at, e.plan_code,\n"
    "p.plan_name, p.monthly_price\n"
    "from {{ ref('stg_events') }} e\n"
    "join {{ ref('plans') }} p on p.plan_code = e.plan_code\n"
    "{% if is_incremental() %}\n"
    "where e.event_at > (select max(event_at) from {{ this }})\n"
    "{% endif %}\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
pyautogui.hotkey("ctrl", "q")
for _ in range(100):
    if "fct_events.sql" not in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.1)

# %% declare the tests in models/marts/schema.yml, typed into cat, which keeps the YAML indentation exact
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(0.5)
pyautogui.typewrite(
    "cat > models/marts/schema.yml\n"
    "version: 2\n"
    "models:\n"
    "  - name: fct_events\n"
    "    columns:\n"
    "      - name: event_id\n"
    "        data_tests: [unique, not_null]\n"
    "      - name: event_type\n"
    "        data_tests:\n"
    "          - accepted_values:\n"
    "              values: ['signup', 'upgrade', 'downgrade', 'cancel']\n"
    "      - name: plan_code\n"
    "        data_tests:\n"
    "          - relationships:\n"
    "              to: ref('plans')\n"
    "              field: plan_code\n"
    "seeds:\n"
    "  - name: plans\n"
    "    columns:\n"
    "      - name: plan_code\n"
    "        data_tests: [unique, not_null]\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)

# %% build seeds, models and tests, and wait until dbt has finished
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
