# %% focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% write models/marts/customer_revenue.sql with cat (no heredoc: pyautogui types "<" as ">" here)
pyautogui.typewrite(
    "mkdir -p models/marts && cat > models/marts/customer_revenue.sql\n"
    "{{ config(materialized='table') }}\n"
    "select c.customer_id, c.customer_name,\n"
    "count(o.order_id) as order_count,\n"
    "coalesce(sum(o.amount), 0) as total_revenue\n"
    "from {{ ref('stg_customers') }} c\n"
    "left join {{ ref('stg_orders') }} o\n"
    "on o.customer_id = c.customer_id and o.status = 'completed'\n"
    "group by c.customer_id, c.customer_name\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)

# %% build the model and wait until dbt has finished
import subprocess
pyautogui.typewrite("dbt run --select customer_revenue\n", interval=0.02)
def running():
    return subprocess.run(["pgrep", "-f", "bin/dbt" + " run"], capture_output=True).returncode == 0
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
