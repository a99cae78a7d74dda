"""The static needs analysis: what a task's files need of its environment (programs, Python
packages, conda environments, hosts on the internet), read from the files without running them,
so that a task its image family cannot serve is skipped with the reason before any container
starts. Nothing here runs at collection.

The modules, from the decision down to the readers of the files' languages:

- :mod:`.analysis`: the decision, :func:`~.analysis.unmet_needs`: a task's needs against what its
  image family provides (``provides.yaml``), each unmet one (:class:`~.analysis.Unmet`) worded;
- :mod:`.known_needs`: the corrections running single tasks found (``known_needs.yaml``);
- :mod:`.task_needs`: everything one task needs, from its steps, getters and the files they name;
- :mod:`.notebook_runs`: whether the task runs its notebooks (setup, evaluation, reference solution
  or instruction), without which what their cells import is no need;
- :mod:`.files`: what one host file (or zip archive) needs, by the kind of each file, cached;
- :mod:`.python_code`, :mod:`.notebooks`, :mod:`.shell` (with its lexer, :mod:`.shell_lexer`) and
  :mod:`.packages` (requirements files, pip's arguments): the readers of the files' languages;
- :mod:`.facts`: what they all fill in: :class:`~.facts.Need`, :class:`~.facts.Facts`, and the
  hosts of URLs.
"""
