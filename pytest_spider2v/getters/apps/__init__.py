"""Application-specific getters, one module per application family (``databases.py``, ...).

Every module here is imported on start-up, so adding an application's getters is adding a file;
the plugin core and the other families stay untouched.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
