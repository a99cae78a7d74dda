# Create a scaffold Dagster project "dagster-proj" in the current directory of the open terminal
# (the home folder), in the conda environment `dagster` that the terminal has activated.
# %% in the terminal: dagster project scaffold --name dagster-proj, then wait for the project files
import os
from dagster_ui import in_terminal, until
in_terminal("dagster project scaffold --name dagster-proj")
until(lambda: os.path.isfile("/home/user/dagster-proj/setup.cfg"), 60, "the scaffold project")
time.sleep(2)

# %%
DONE
