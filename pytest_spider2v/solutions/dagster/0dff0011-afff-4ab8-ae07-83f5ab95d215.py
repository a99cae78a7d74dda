# Launch Dagster's local web server on port 8004 for the project ~/dagster-proj (the open
# terminal is in that folder, its conda environment `dagster` active) and open the page.
# %% in the terminal: dagster dev -p 8004, left running; wait until the web server answers
from dagster_ui import answers
from desktop import until
from terminal import focus_terminal, run
focus_terminal()
run("dagster dev -p 8004")
until(lambda: answers("http://127.0.0.1:8004/server_info"), 80, "dagster dev on port 8004")

# %% open http://127.0.0.1:8004 in Chromium and wait for the page
from dagster_ui import goto, wait_for
from desktop import focus
focus("Chromium")
goto("http://127.0.0.1:8004")
wait_for("Overview", timeout=60)
time.sleep(1)

# %%
DONE
