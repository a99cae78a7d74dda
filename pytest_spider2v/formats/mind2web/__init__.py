"""Multimodal-Mind2Web (the card's offline snapshot form) as pytest items: each trajectory a task,
each step answered by the agent in the card's two rounds and scored as the card scores it.

:mod:`.format` reads the Parquet files (:mod:`.table`, :mod:`.snapshot`) into tasks;
:mod:`.plugin` makes their items and runs them (:mod:`.run`) with the answerers of
:mod:`.answerers`; :mod:`.metric` scores with :mod:`.answers` and :mod:`.scoring`. Importing this
package registers the format and its metric; the answerers register when a run first asks for
one (they import the model agents, which no collection needs). The ``pytest_spider2v``
entry-point group loads :mod:`.plugin`, which implements pytest hooks.
"""

from pytest_spider2v.formats.mind2web import format, metric  # noqa: F401  (registration on import)
