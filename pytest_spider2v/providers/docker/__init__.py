"""The ``docker`` provider: every environment a container of its snapshot's image on the local
Docker engine (:mod:`.provider`), reached over its published guest ports, whose faults name the
limit it hit (:mod:`.environment`, :mod:`.guard`, reading the container's cgroup counters in
:mod:`.cgroups`); limits per snapshot (:mod:`pytest_spider2v.environments.limits`) and, with ``--isolate-network``, a private
network per worker (:mod:`.network`).
"""
