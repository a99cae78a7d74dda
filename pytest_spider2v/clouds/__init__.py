"""Clients of the cloud services that the original's account tasks use (BigQuery, ...), built
from the account settings a user gives with ``--settings-dir``, in the original's layout.

Setup steps and getters of the account families import these; the plugin core never does. The
services' client libraries are the optional ``accounts`` extra, imported inside the functions
that need them, so a run without account tasks never loads them.
"""
