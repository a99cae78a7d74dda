"""Print, for each TCP port given, the sockets listening on it: ``{port: [[inode, uid, pid, exe]]}``.

The kernel's socket tables (``/proc/net/tcp``, ``tcp6``) give each listening socket's inode, which
stays the same for the socket's life, and the user that opened it. The process holding it is found
among ``/proc/<pid>/fd``, and its program through ``/proc/<pid>/exe`` (which a process cannot
rewrite as it can its command line); both can be read only for processes of the probe's own user,
so for another user's socket the pid and program are null.
"""

import json
import os
import sys

LISTEN = "0A"


def listening(wanted):
    """inode -> (port, uid) of the sockets listening on a wanted port."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines)
                for line in lines:
                    fields = line.split()
                    port = int(fields[1].rsplit(":", 1)[1], 16)
                    if fields[3] == LISTEN and port in wanted:
                        found[fields[9]] = (port, int(fields[7]))
        except OSError:
            continue
    return found


def holders(inodes):
    """inode -> (pid, exe) for the sockets whose process this user may look into."""
    held = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            links = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
            exe = os.readlink(f"/proc/{pid}/exe")
        except OSError:
            continue
        for inode in inodes:
            if f"socket:[{inode}]" in links:
                held.setdefault(inode, (int(pid), exe))
    return held


def main():
    wanted = {int(arg) for arg in sys.argv[1:]}
    sockets = listening(wanted)
    held = holders(sockets)
    result = {}
    for inode, (port, uid) in sorted(sockets.items()):
        pid, exe = held.get(inode, (None, None))
        result.setdefault(str(port), []).append([int(inode), uid, pid, exe])
    print(json.dumps(result))


main()
