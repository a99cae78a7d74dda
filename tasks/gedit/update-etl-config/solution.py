# %% focus gedit once it shows the file
from desktop import focus
focus("etl_job.ini")

# %% line 7: the source database
from gedit import retype_line
retype_line(7, "database = sales_2024")

# %% line 12: the target compression
from gedit import retype_line
retype_line(12, "compression = snappy")

# %% line 18: the retries
from gedit import retype_line
retype_line(18, "retries = 3")

# %% save
pyautogui.hotkey("ctrl", "s")
time.sleep(1.5)

# %%
DONE
