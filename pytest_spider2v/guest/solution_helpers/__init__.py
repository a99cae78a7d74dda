"""Helper modules for reference solutions, kept once here instead of copied into every solution.

Each other module beside this file is one for the guest's Python (it imports pyatspi,
pyautogui, Pillow; the host never imports it). A solution cell uses one by importing it, e.g.
``from airflow_ui import click``, and the oracle agent puts the module's source in front of
that cell's code, installed in ``sys.modules`` under its name. So every cell stays one
self-contained action, run by a fresh guest interpreter through the same path as an LLM agent's
code: nothing is written into the guest or baked into an image, and a wrong solution that drops
or reorders cells cannot lose a helper. A traceback names ``airflow_ui.py`` and the line in
the module's own file.

A helper module may import another (``terminal`` uses ``desktop``'s window functions): the
oracle ships that one too, before the module that needs it, so a procedure common to several
families is written once.
"""

