# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% open the new script in gedit (auto-indent off, so that typed indentation stays as typed)
import subprocess
from gedit import open_file
subprocess.run(["gsettings", "set", "org.gnome.gedit.preferences.editor", "auto-indent", "false"])
open_file("load_access_log.py")

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
    "        path = target.split('?')[0]\n"
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
from gedit import save_and_close
save_and_close("load_access_log.py")

# %% run the loader in the terminal and wait for it
from terminal import focus_terminal, run
focus_terminal(settle=0.5)
run("python3 load_access_log.py", process="load_access_log.py", creates="/home/user/etl/weblogs.db")

# %%
DONE
