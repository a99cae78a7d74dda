"""Guest helpers for reference solutions that work in the desktop's terminal (GNOME Terminal),
as a person at the keyboard would: raise or open the terminal, type a command and wait for what
it does, type a file into ``cat``.

Waiting is on the effect, never on a guessed time: a command is finished when no process with
its command line is left (this cell's own interpreter, whose command line holds the same words,
does not count), a file is written when it exists.
pyautogui types ``<`` as ``>`` on this desktop's keyboard map, so typed text avoids ``<`` (heredocs,
comparisons written the other way round).

A solution cell that runs ``from terminal import run`` gets this module, and :mod:`desktop` that
it uses, shipped with it by the oracle agent (see :mod:`pytest_spider2v.agents.solution_helpers`).
"""

import os
import subprocess
import time

import pyautogui
from desktop import until, wait_file

TERMINAL = "gnome-terminal-server.Gnome-terminal"  #: GNOME Terminal's WM class, whatever its title
#: a cell must finish within the action timeout (90 s), so one wait gets less than that
TIMEOUT = 80.0


# -- the terminal ----------------------------------------------------------------------------------

def focus_terminal(settle=1.5, timeout=30.0):
    """Once the terminal's window is there (the task's setup may still be opening it), raise it."""
    until(lambda: TERMINAL.split(".")[0] in subprocess.run(["wmctrl", "-lx"], capture_output=True,
                                                           text=True).stdout, timeout, "the terminal")
    subprocess.run(["wmctrl", "-x", "-a", TERMINAL])
    time.sleep(settle)


def open_terminal(folder, settle=1.5):
    """Open a new terminal window in ``folder`` and raise it."""
    subprocess.Popen(["gnome-terminal", "--maximize", f"--working-directory={folder}"])
    focus_terminal(settle)


def close_terminal(timeout=30.0):
    """Type ``exit`` into the terminal and wait until its window is gone."""
    pyautogui.typewrite("exit\n", interval=0.02)
    until(lambda: TERMINAL.split(".")[0] not in subprocess.run(["wmctrl", "-lx"], capture_output=True,
                                                               text=True).stdout, timeout, "the terminal to close")


def _ancestors():
    """This process and its parents: their command lines hold the cell's own code."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
                pid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def running(words):
    """True while a process runs whose command line contains ``words`` (not this cell's own)."""
    mine = _ancestors()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in mine:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                line = cmdline.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if words in line:
            return True
    return False


def run(command, process=None, creates=None, timeout=TIMEOUT, start=3.0):
    """Type ``command`` into the focused terminal and press Enter: a shell command, or a line for
    the program running there (a SQL shell). Then wait until the process whose command line
    contains ``process`` has come (it may be done before it is seen: ``start`` seconds at most)
    and gone, and until the file ``creates`` exists."""
    pyautogui.typewrite(command + "\n", interval=0.02)
    if process is not None:
        deadline = time.monotonic() + start
        while not running(process) and time.monotonic() < deadline:
            time.sleep(0.1)
        until(lambda: not running(process), timeout, f"{process!r} to finish", every=0.5)
    if creates is not None:
        wait_file(creates, timeout)


def cat_into(path, text, append=False, interval=0.01):
    """Write ``text`` to ``path`` by typing it into ``cat > path`` (``>>`` with ``append``) and
    ending it with Ctrl+D: typed this way, indentation stays exactly as written (an editor
    indents on its own)."""
    if not text.endswith("\n"):
        text += "\n"
    pyautogui.typewrite(f"cat {'>>' if append else '>'} {path}\n" + text, interval=interval)
    pyautogui.hotkey("ctrl", "d")
    time.sleep(0.5)
