"""pytest-spider2v: the Spider2-V benchmark as a pytest plugin, one test item per task."""

from .registries import agents, getters, metrics, providers, setup_steps
from .registry import Unavailable, UnknownName

__all__ = ["agents", "getters", "metrics", "providers", "setup_steps", "Unavailable", "UnknownName"]
__version__ = "0.1.0"
