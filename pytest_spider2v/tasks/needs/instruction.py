"""What a task's instruction says about its own code: the modules it asks the agent to write,
and whether it asks for a notebook's code to run.

Both decide needs that the files alone get wrong. An evaluation script that imports the job
file the instruction tells the agent to create (``jobs.py``) needs no package ``jobs``; and a
notebook the task only opens, clears or copies from never runs, so its imports are no need.
The reading is of words. A notebook's needs are dropped only when the instruction asks for
nothing that running code gives (no "run", "execute", "determine", "plot", ...); a name written
as a file or module is taken as the task's own. A wrong "runnable" shows in the task's
validation (its reference solution cannot score 1); a wrong "not runnable" would hide the task.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

#: A Python file named in prose, with or without folders: ``jobs.py``, ``hacker_news/jobs.py``.
PYTHON_FILE = re.compile(r"(?<![\w/.-])([\w./-]*\w)\.py\b")
#: A module or package the prose asks to write: "create a module named `jobs`" (never an error
#: message's "No module named 'nltk'", which names what is missing).
NAMED_MODULE = re.compile(r"\b(?:create|write|add|define|implement|make|build)\w*\s+(?:(?:a|an|the|new|python)\s+)*"
                          r"(?:module|package)\s+(?:(?:named|called)\s+)?[`'\"]([A-Za-z_]\w*)[`'\"]", re.I)
#: Words that ask for code to run, or for a result only running code gives.
RUNS = re.compile(r"\b(?:run|re-?run|running|execute[sd]?|executing|restart|compute|calculate|display|"
                  r"determine|find|count|plot|draw|visuali[sz]e|train|predict|fit|analy[sz]e|answer|"
                  r"complete|fix|implement|evaluate)\b", re.I)
#: Phrases where those words do not ask for it: a negation, or something already done.
NOT_ASKED = re.compile(r"\b(?:(?:do not|don't|no need to|not need to|without|never|not)\s+(?:need\s+to\s+)?"
                       r"(?:run|running|execute|executing)(?:\s+it)?|(?:has|have|had|was|were)\s+(?:been|already)\s+"
                       r"(?:run|executed))\b", re.I)


def modules_named(instruction: str) -> set[str]:
    """Modules the instruction names as files or modules to write, with the folders of their path
    (``hacker_news/jobs.py``: ``hacker_news`` and ``jobs``): imports of them are the task's own."""
    modules = {m.group(1) for m in NAMED_MODULE.finditer(instruction)}
    for match in PYTHON_FILE.finditer(instruction):
        path = PurePosixPath(match.group(1))
        modules.update(part for part in path.parts if part.isidentifier())
    return modules


def asks_to_run_code(instruction: str) -> bool:
    """Whether the instruction asks for code to run ("run all cells", "determine the total"),
    besides the phrases that say it need not ("you don't need to run it", "has been run")."""
    return RUNS.search(NOT_ASKED.sub(" ", instruction)) is not None
