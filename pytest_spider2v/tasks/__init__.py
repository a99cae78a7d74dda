"""Tasks: the task model (:mod:`.model`), the file layouts and formats that produce tasks
(:mod:`.loading`, :mod:`.formats`), and what a task needs of its environment to run here
(:mod:`.availability`, the static needs analysis in :mod:`.needs`).
"""
