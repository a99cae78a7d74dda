"""Near-miss makers of the metrics written for one application's image, one module per
application family (``servicedesk.py``, ...).

Every module here is imported on start-up, so adding an application's near misses is adding a
file; the plugin core and the other families stay untouched.
"""

from pytest_spider2v.registry import import_submodules

import_submodules(__name__, __path__)
