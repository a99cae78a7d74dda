"""The guest server: the HTTP side of the desktop, running inside the environment as ``user``.

It is copied into the environment image and started there by ``python3 -m guest`` with
Debian's Python (Flask, lxml, Pillow, python-xlib, pyatspi) and pyautogui. Host code never
imports it: the host speaks to it only over HTTP through :mod:`pytest_spider2v.environments.http`,
whose requests and JSON shapes it answers (they follow the original harness's server).
"""
