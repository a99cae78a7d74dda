"""Where the files that go into environments lie in the installed package. Host code locates
them here and never imports them: the guest server is copied into every image, the solution
helpers are read and shipped with a solution's code, the recipes are build contexts.
"""

from pathlib import Path

#: The installed ``pytest_spider2v`` package.
PACKAGE_DIR = Path(__file__).resolve().parents[1]
#: One folder per image recipe, and the tables ``snapshots.yaml`` and ``provides.yaml``.
RECIPES_DIR = PACKAGE_DIR / "environments" / "recipes"
#: The guest server package, copied into every build context as ``guest/``.
GUEST_SERVER_DIR = PACKAGE_DIR / "guest" / "server"
#: The guest gate, which the Swarm provider ships into each service (a Swarm config).
GUEST_GATE = PACKAGE_DIR / "guest" / "gate.py"
#: Scripts the harness runs inside an environment through its engine (``<name>.py``).
GUEST_PROBES = PACKAGE_DIR / "guest" / "probes"
#: The modules reference solutions import, one file each.
SOLUTION_HELPERS_DIR = PACKAGE_DIR / "guest" / "solution_helpers"
#: Reference solutions written here for the tasks of a Spider2-V checkout, ``<app>/<id>.py``.
SPIDER2V_SOLUTIONS_DIR = PACKAGE_DIR / "solutions"
