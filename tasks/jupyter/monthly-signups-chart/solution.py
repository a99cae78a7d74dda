# %% focus Chromium, which shows the notebook in JupyterLab
from desktop import focus
focus("JupyterLab", settle=0.5)

# %% click into the code cell that reads signups.csv and run it (Shift+Enter opens a new cell)
from jupyter_ui import run_first_cell
run_first_cell()

# %% type the counting and plotting code into the new cell
pyautogui.typewrite(
    "signups['month'] = signups['signup_date'].dt.strftime('%Y-%m')\n"
    "monthly = signups.groupby('month').size().reset_index(name='signups')\n"
    "monthly.to_csv('monthly_signups.csv', index=False)\n"
    "fig, ax = plt.subplots(figsize=(8, 4))\n"
    "ax.bar(monthly['month'], monthly['signups'])\n"
    "ax.set_title('Monthly sign-ups')\n"
    "ax.set_xlabel('Month')\n"
    "ax.set_ylabel('Sign-ups')\n"
    "fig.savefig('signups_chart.png')",
    interval=0.01,
)

# %% run the cell and wait for the chart file
from jupyter_ui import run_until
run_until("/home/user/signups_chart.png", settle=1.0)

# %% save the notebook (Ctrl+S) until the saved file has the chart output
from jupyter_ui import save_until
save_until("/home/user/signups_chart.ipynb", "image/png")

# %%
DONE
