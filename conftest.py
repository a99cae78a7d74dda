"""Project-level test configuration for the plugin's own test suite (``tests/``).

The benchmark plugin itself is loaded through its ``pytest11`` entry points, so running
``pytest`` on any task folder (ours or a Spider2-V checkout) needs nothing from this file.
"""

pytest_plugins = ["pytester"]
