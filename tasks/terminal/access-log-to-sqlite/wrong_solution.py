# Wrong on purpose: keeps the query string in path (e.g. /search?q=lamp instead of /search)
# %% based-on: solution.py
# %% insert-after 4: back in the terminal, make the path the whole request target with sed
from terminal import focus_terminal, run
focus_terminal(settle=0.5)
run("sed -i 's/path = target.split.*/path = target/' load_access_log.py")
