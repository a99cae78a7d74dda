"""The ``swarm`` provider: desktops as services on a Docker Swarm (:mod:`.provider`), with its
command-line flags (:mod:`.options`)."""
