"""Print the state of each path given (not following links): ``{path: [mode, size, mtime_ns,
ctime_ns, inode]}``, or null for a path that does not exist."""

import json
import os
import sys

states = {}
for path in sys.argv[1:]:
    try:
        info = os.lstat(path)
    except OSError:
        states[path] = None
        continue
    states[path] = [info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
print(json.dumps(states))
