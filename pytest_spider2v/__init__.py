"""pytest-spider2v: the Spider2-V benchmark as a pytest plugin, one test item per task.

Extensions register into the registries of :mod:`pytest_spider2v.registry`
(``setup_steps``, ``getters``, ``metrics``, ``agents``, ``providers``).
"""

from pytest_spider2v.registry import Unavailable, UnknownName

__all__ = ["Unavailable", "UnknownName"]
__version__ = "0.1.0"
