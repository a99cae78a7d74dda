"""Application-specific metrics, one module per application family (``servicedesk.py``, ...).

Adding an application's metrics is adding a file here: the package's index
(``metrics/registrations.json``, written by ``spider2v-registrations --write``) names the module of
each metric, which is imported when a task uses one; the plugin core and the other families stay
untouched.
"""
