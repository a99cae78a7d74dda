# Start the local Superset and open its home page on port 8088: in the terminal (open in
# ~/projects, where the Superset repository is), `cd superset` and
# `docker compose -f docker-compose-image-tag.yml up`; then in Chromium go to
# http://localhost:8088 and sign in with the default account admin/admin.
# %% in the terminal: cd superset; docker compose -f docker-compose-image-tag.yml up (left running)
import urllib.request
from superset_ui import until
from terminal import focus_terminal
focus_terminal()
pyautogui.typewrite("cd superset\n", interval=0.02)
pyautogui.typewrite("docker compose -f docker-compose-image-tag.yml up\n", interval=0.02)

def answers():
    try:
        return urllib.request.urlopen("http://localhost:8088/health", timeout=5).status == 200
    except OSError:
        return False

if not until(answers, 80):
    raise SystemExit("Superset does not answer on port 8088")

# %% Chromium: http://localhost:8088, the sign-in page
from desktop import focus
from superset_ui import pyautogui, wait_for
focus("Chromium")
pyautogui.hotkey("ctrl", "l")
time.sleep(0.5)
pyautogui.typewrite("http://localhost:8088\n", interval=0.02)
wait_for("push button", "Sign In", timeout=60)

# %% sign in as admin/admin: the welcome page
from superset_ui import address, click, fill, until
fill("entry", "USERNAME:", "admin")
fill("password text", "PASSWORD:", "admin")
click("push button", "Sign In")
if not until(lambda: "/superset/welcome" in address(), 60):
    raise SystemExit("not signed in")

# %%
DONE
