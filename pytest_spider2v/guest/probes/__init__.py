"""Scripts the harness runs inside an environment through its engine, as root, with
``python3 -I -S`` (no site packages, no start-up hooks, no environment variables: nothing the
agent could have planted runs with them). Each reads its arguments and prints JSON. The host
reads them as text (``environments.locations.GUEST_PROBES``) and never imports them; like the
guest gate they travel at run time, into no image, so they move no task's fingerprint.
"""
