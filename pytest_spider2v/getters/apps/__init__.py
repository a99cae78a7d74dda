"""Application-specific getters, one module per application family (``databases.py``, ...).

Adding an application's getters is adding a file here: the package's index
(``getters/registrations.json``, written by ``spider2v-registrations --write``) names the module of
each getter, which is imported when a task uses one; the plugin core and the other families stay
untouched.
"""
