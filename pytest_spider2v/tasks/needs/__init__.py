"""The static needs analysis: what a task's files need of its environment (programs, Python
packages, conda environments, hosts on the internet), read from the files without running them,
so that a task its image family cannot serve is skipped with the reason before any container
starts. :mod:`.analysis` decides; the readers of the files' languages are beside it.
"""
