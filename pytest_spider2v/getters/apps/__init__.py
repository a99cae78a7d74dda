"""Application-specific getters, one module per application family (``databases.py``, ...).

Every module here is imported on start-up, so adding an application's getters is adding a file;
the plugin core and the other families stay untouched.
"""

from pytest_spider2v.registry import import_submodules

import_submodules(__name__, __path__)
