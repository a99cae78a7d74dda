# %% focus Chromium, which shows the notebook in JupyterLab
from desktop import focus
focus("JupyterLab", settle=0.5)

# %% click into the code cell that reads readings.csv and run it (Shift+Enter opens a new cell)
from jupyter_ui import run_first_cell
run_first_cell()

# %% type the cleaning code into the new cell
pyautogui.typewrite(
    "df = df.drop_duplicates()\n"
    "df = df.dropna(subset=['temperature_c'])\n"
    "df['station'] = df['station'].str.strip().str.lower()\n"
    "df = df.sort_values('reading_id')\n"
    "df.to_csv('readings_clean.csv', index=False)",
    interval=0.01,
)

# %% run the cell and wait for the file
from jupyter_ui import run_until
run_until("/home/user/readings_clean.csv")

# %% save the notebook (Ctrl+S) until the saved file has the new cell
from jupyter_ui import save_until
save_until("/home/user/clean_readings.ipynb", "readings_clean.csv")

# %%
DONE
