"""What a task's instruction says about its own code: the modules it asks the agent to write,
and whether it asks for a notebook's code to run.

Both decide needs that the files alone get wrong. An evaluation script that imports the job
file the instruction tells the agent to create (``jobs.py``) needs no package ``jobs``; and a
notebook the task only opens, clears or copies from never runs, so its imports are no need.
The reading is of words, and of the task's words only: the sentences a verbose variant wraps its
tutorial in ("... instructing you how to complete it:", "... proactively tackle the task ...")
are the same in every verbose task and ask for nothing, so they are left out (their "complete"
once made every verbose notebook task run its notebook). What is left asks for a run in two
ways. Words that ask to run ("run", "execute", "restart") ask for it outright; words that ask for
a result ("determine", "plot", "complete", "fix", ...) ask for one only where the result is what
running gives, which the evaluation decides (see :mod:`.notebook_runs`). A name written as a file
or module is taken as the task's own. A wrong "runnable" shows in the task's validation (its
reference solution cannot score 1); a wrong "not runnable" would hide the task.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from pytest_spider2v.tasks.model import VERBOSE_FOOTER, VERBOSE_HEADER

#: A Python file named in prose, with or without folders: ``jobs.py``, ``hacker_news/jobs.py``.
PYTHON_FILE = re.compile(r"(?<![\w/.-])([\w./-]*\w)\.py\b")
#: A module or package the prose asks to write: "create a module named `jobs`" (never an error
#: message's "No module named 'nltk'", which names what is missing).
NAMED_MODULE = re.compile(r"\b(?:create|write|add|define|implement|make|build)\w*\s+(?:(?:a|an|the|new|python)\s+)*"
                          r"(?:module|package)\s+(?:(?:named|called)\s+)?[`'\"]([A-Za-z_]\w*)[`'\"]", re.I)
#: Words that ask for code to run.
RUNS = re.compile(r"\b(?:run|re-?run|running|execute[sd]?|executing|restart)\b", re.I)
#: Words that ask for a result that running code may give (whether it must, the evaluation says).
RESULTS = re.compile(r"\b(?:compute|calculate|display|determine|find|count|plot|draw|visuali[sz]e|train|predict|"
                     r"fit|analy[sz]e|answer|complete|fix|implement|evaluate)\b", re.I)
#: The sentences a verbose variant wraps its tutorial in: the same in every verbose task.
WRAPPING = (VERBOSE_HEADER.strip(), VERBOSE_FOOTER.strip())
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


def asks_to_run(instruction: str) -> bool:
    """Whether the task's words ask outright for code to run ("run all cells", "execute it")."""
    return RUNS.search(_task_words(instruction)) is not None


def asks_for_result(instruction: str) -> bool:
    """Whether the task's words ask for a result that running code may give ("determine the
    total", "complete the TODO cells")."""
    return RESULTS.search(_task_words(instruction)) is not None


def _task_words(instruction: str) -> str:
    """The instruction without a verbose variant's wrapping sentences and without the phrases
    that say no run is asked."""
    for sentence in WRAPPING:
        instruction = instruction.replace(sentence, " ")
    return NOT_ASKED.sub(" ", instruction)
