# Wrong on purpose: swaps minute and hour in the cron expression (3 15 * * * runs at 15:03, not 03:15)
# %% based-on: solution.py
# %% insert-after 4: swap the saved schedule's minute and hour (sed on the file)
import subprocess
subprocess.run(["sed", "-i", 's/cron_schedule="15 3 /cron_schedule="3 15 /',
                "/home/user/projects/report_jobs/report_jobs/definitions.py"], check=True)
