# Create an empty Astro project in the terminal's folder (~/projects/astro_Project, which holds
# only a Dockerfile) and run it with the webserver on port 8002: `astro dev init` (it asks
# whether to use a folder that is not empty), `astro config set webserver.port 8002`, then
# `astro dev start`, which returns once Airflow is up.
# %% astro dev init in the open terminal, answering y to its question
from terminal import focus_terminal, run
focus_terminal()
run("astro dev init")
run("y", process="astro dev init", creates="/home/user/projects/astro_Project/airflow_settings.yaml")

# %% the webserver on port 8002
from terminal import run
run("astro config set webserver.port 8002", process="astro config set")

# %% start the project; `astro dev start` returns once Airflow answers
from terminal import run
run("astro dev start", process="astro dev start")

# %%
DONE
