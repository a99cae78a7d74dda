"""Built-in setup steps: ``fn(ctx, **parameters)`` for a task's ``config`` and ``postconfig``.

Importing this package registers them in :data:`pytest_spider2v.registry.setup_steps` from its
index (``registrations.json``, see :mod:`pytest_spider2v.cli.registrations`), without importing
their modules: the original harness's steps (:mod:`.builtin`), the Chrome DevTools ones
(:mod:`.chrome`), one module per application family (:mod:`.apps`) and the names known without
an implementation here (:mod:`.declared`). A module is imported when a task's step is run. The
plugin core never imports this package; the ``pytest_spider2v`` entry-point group does (see
:func:`pytest_spider2v.registry.load_extensions`).
"""

from pytest_spider2v.registry import load_index

load_index(__name__, __path__)
