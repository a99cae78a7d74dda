"""Environments, host side: the contract every environment fulfils (:mod:`.base`), the client
of the guest server that implements it over HTTP (:mod:`.http`), the contract of the providers
that hand environments out (:mod:`.provider`), the snapshot table and what each image offers
(:mod:`.snapshots`), and the building of the images (:mod:`.build`).

``recipes/`` holds one folder per image (a Dockerfile and the files it copies, guest-side
stand-ins among them) and the tables ``snapshots.yaml`` and ``provides.yaml``. The guest server
itself, which every image carries, is :mod:`pytest_spider2v.guest.server`: located, never
imported (:mod:`.locations`).
"""
