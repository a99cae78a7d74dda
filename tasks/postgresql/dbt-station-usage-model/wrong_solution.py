# Wrong on purpose: joins the stations to the rides with an inner join, so stations without rides are missing
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% write models/marts/station_usage.sql with cat (no heredoc: pyautogui types "<" as ">" here)
pyautogui.typewrite(
    "cat > models/marts/station_usage.sql\n"
    "select s.station_id, s.station_name, s.district,\n"
    "count(r.ride_id) as ride_count,\n"
    "coalesce(sum(r.duration_min), 0) as total_duration_min\n"
    "from {{ ref('stg_stations') }} s\n"
    "join {{ ref('stg_rides') }} r on r.station_id = s.station_id\n"
    "group by s.station_id, s.station_name, s.district\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)

# %% declare the tests in models/marts/schema.yml
pyautogui.typewrite(
    "cat >> models/marts/schema.yml\n"
    "  - name: station_usage\n"
    "    columns:\n"
    "      - name: station_id\n"
    "        tests: [unique, not_null]\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)

# %% build everything and wait until dbt has finished
import subprocess
pyautogui.typewrite("dbt build\n", interval=0.02)
# the pattern is split so that pgrep does not find this very script's command line
pattern = "bin/dbt" + " build"
def running():
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True).returncode == 0
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
