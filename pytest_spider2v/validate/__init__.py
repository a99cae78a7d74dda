"""``--validate``: checks of the tasks themselves instead of an agent's run (:mod:`.checks`),
the selection of the tasks whose inputs changed since they last passed (:mod:`.selection`,
by :mod:`.fingerprint`), and the per-app summary (:mod:`.summary`).

It plugs into the plugin as a pytest plugin of its own (:mod:`.plugin`), through the plugin's
``pytest_spider2v_make_items`` hook: the plugin never imports it.
"""
