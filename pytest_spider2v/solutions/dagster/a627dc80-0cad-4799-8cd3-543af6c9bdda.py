# Create a scaffold Dagster project "dagster-proj" in the current directory of the open terminal
# (the home folder), in the conda environment `dagster` that the terminal has activated.
# %% in the terminal: dagster project scaffold --name dagster-proj, then wait for the project files
from terminal import focus_terminal, run
focus_terminal()
run("dagster project scaffold --name dagster-proj", process="project scaffold --name dagster-proj",
    creates="/home/user/dagster-proj/setup.cfg")

# %%
DONE
