# Wrong on purpose: loads only the first day's CSV file instead of all of them
# %% based-on: solution.py
# %% insert-after 3: make the saved asset read only the first day's file (sed on the file)
import subprocess
subprocess.run(["sed", "-i", "s#data/[*][.]csv#data/readings_2024-06-01.csv#",
                "/home/user/projects/sensor_ingest/sensor_ingest/assets.py"], check=True)
