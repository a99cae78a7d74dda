# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% write models/marts/station_usage.sql with cat (no heredoc: pyautogui types "<" as ">" here)
from terminal import cat_into
cat_into("models/marts/station_usage.sql",
         "select s.station_id, s.station_name, s.district,\n"
         "count(r.ride_id) as ride_count,\n"
         "coalesce(sum(r.duration_min), 0) as total_duration_min\n"
         "from {{ ref('stg_stations') }} s\n"
         "left join {{ ref('stg_rides') }} r on r.station_id = s.station_id\n"
         "group by s.station_id, s.station_name, s.district\n")

# %% declare the tests in models/marts/schema.yml
from terminal import cat_into
cat_into("models/marts/schema.yml",
         "  - name: station_usage\n"
         "    columns:\n"
         "      - name: station_id\n"
         "        tests: [unique, not_null]\n",
         append=True)

# %% build everything and wait until dbt has finished
from terminal import run
run("dbt build", process="dbt build")

# %%
DONE
