"""``python3 -m guest``: serve the desktop on port 5000 with a threaded server."""

import logging
import os

from .app import create_app

logging.basicConfig(level=logging.INFO, format="%(asctime)s guest %(levelname)s %(message)s")
# One line per request (readiness polls included) would bury the start-up errors that the
# provider shows from the container log when a desktop fails to come up.
logging.getLogger("werkzeug").setLevel(logging.WARNING)
create_app().run(host="0.0.0.0", port=int(os.environ.get("SPIDER2V_GUEST_PORT", "5000")), threaded=True)
