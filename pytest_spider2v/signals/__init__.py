"""How a run stops: Ctrl-C and SIGTERM handled alike (:mod:`.stopping`), and background threads
that leave both to the main thread (:mod:`.threads`). The lowest room of the core beside the
registry: environments, the run and the plugin all start threads or ask why the run stopped.
"""
