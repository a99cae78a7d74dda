# Wrong on purpose: joins the stations to the rides with an inner join, so stations without rides are missing
# %% based-on: solution.py
# %% insert-after 2: make the left join an inner join with sed
from terminal import run
run("sed -i 's/left join/join/' models/marts/station_usage.sql")
