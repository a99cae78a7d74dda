# Clear every output (and execution count) of ~/Desktop/linear_regression.ipynb, open in
# JupyterLab, as the tutorial says: the menu bar's "Edit", then "Clear Outputs of All Cells";
# then save it (Ctrl+S) until the file on disk holds no output.
# route: gui: outputs cleared and saved
# %% focus JupyterLab
from desktop import focus
focus("JupyterLab")

# %% Edit > Clear Outputs of All Cells
from jupyter_ui import choose_menu
choose_menu("Edit", "Clear Outputs of All Cells")

# %% save, until the saved notebook has no output left
from jupyter_ui import save_when_cleared
save_when_cleared("/home/user/Desktop/linear_regression.ipynb")

# %%
DONE
