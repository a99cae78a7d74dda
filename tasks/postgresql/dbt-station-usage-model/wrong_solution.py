# Wrong on purpose: joins the stations to the rides with an inner join, so stations without rides are missing
# %% based-on: solution.py
# %% replace 2: write models/marts/station_usage.sql with cat (no heredoc: pyautogui types "<" as ">" here)
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
