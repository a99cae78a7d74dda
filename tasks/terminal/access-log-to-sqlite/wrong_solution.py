# Wrong on purpose: keeps the query string in path (e.g. /search?q=lamp instead of /search)
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

# %% open the new script in gedit (auto-indent off, so that typed indentation stays as typed)
import subprocess
subprocess.run(["gsettings", "set", "org.gnome.gedit.preferences.editor", "auto-indent", "false"])
pyautogui.typewrite("gedit load_access_log.py &\n", interval=0.02)
for _ in range(150):
    if "load_access_log.py" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
time.sleep(1.5)

# %% write the loader
pyautogui.typewrite(
    "import re\n"
    "import sqlite3\n"
    "from datetime import datetime\n"
    "\n"
    "LINE = re.compile(r'(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] \"(\\S+) (\\S+) [^\"]*\" (\\d{3}) (\\S+)')\n"
    "\n"
    "rows = []\n"
    "with open('/home/user/etl/access.log') as f:\n"
    "    for line in f:\n"
    "        m = LINE.match(line)\n"
    "        if m is None:\n"
    "            continue\n"
    "        ip, ts, method, target, status, size = m.groups()\n"
    "        when = datetime.strptime(ts, '%d/%b/%Y:%H:%M:%S %z').strftime('%Y-%m-%d %H:%M:%S')\n"
    "        path = target\n"
    "        rows.append((ip, when, method, path, int(status), 0 if size == '-' else int(size)))\n"
    "\n"
    "con = sqlite3.connect('/home/user/etl/weblogs.db')\n"
    "con.execute('DROP TABLE IF EXISTS requests')\n"
    "con.execute('CREATE TABLE requests (ip TEXT, requested_at TEXT, method TEXT, path TEXT, status INTEGER, bytes INTEGER)')\n"
    "con.executemany('INSERT INTO requests VALUES (?, ?, ?, ?, ?, ?)', rows)\n"
    "con.commit()\n"
    "con.close()\n"
    "print(len(rows), 'rows loaded')\n",
    interval=0.005,
)

# %% save, close gedit and wait until it is gone
import subprocess
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
pyautogui.hotkey("ctrl", "q")
for _ in range(100):
    if "load_access_log.py" not in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.1)

# %% run the loader in the terminal and wait for it
import os
import subprocess
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(0.5)
pyautogui.typewrite("python3 load_access_log.py\n", interval=0.02)
for _ in range(100):
    if os.path.exists("/home/user/etl/weblogs.db") and subprocess.run(
        ["pgrep", "-f", "load_access_log" + ".py"], capture_output=True
    ).returncode != 0:
        break
    time.sleep(0.1)

# %%
DONE
