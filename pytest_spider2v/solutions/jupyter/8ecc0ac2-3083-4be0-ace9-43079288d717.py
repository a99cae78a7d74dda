# Run every cell of the notebook open in JupyterLab (~/Downloads/sports-products.ipynb) and
# save it: the toolbar's "Restart the kernel and run all cells", then Ctrl+S once the kernel is
# idle again.
# route: gui: notebook run and saved
# %% focus JupyterLab and click into the notebook
from desktop import focus
import pyautogui
focus("JupyterLab")
width, height = pyautogui.size()
pyautogui.click(width // 2, height // 2)
time.sleep(0.5)

# %% run all cells, from the notebook toolbar
from jupyter_ui import run_all_cells
run_all_cells()

# %% wait until the kernel is idle and every code cell ran, then save
from jupyter_ui import save_when_all_ran
save_when_all_ran("/home/user/Downloads/sports-products.ipynb")

# %%
DONE
