# Wrong on purpose: declares the model incremental but leaves out the is_incremental() filter, so every run reprocesses all events
# %% based-on: solution.py
# %% replace 3: write the incremental model, save it and close gedit
import subprocess
pyautogui.typewrite(
    "{{ config(materialized='incremental', unique_key='event_id') }}\n"
    "select e.event_id, e.account_id, e.event_type, e.event_at, e.plan_code,\n"
    "p.plan_name, p.monthly_price\n"
    "from {{ ref('stg_events') }} e\n"
    "join {{ ref('plans') }} p on p.plan_code = e.plan_code\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
pyautogui.hotkey("ctrl", "q")
for _ in range(100):
    if "fct_events.sql" not in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.1)
