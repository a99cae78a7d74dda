"""What setup steps and getters receive: the environment, the task and host-side places."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_spider2v.environments.base import Environment
from pytest_spider2v.run.integrity import Integrity
from pytest_spider2v.tasks.model import Task


@dataclass
class TaskContext:
    """Per-task state shared by setup steps and getters (the original's SetupController)."""

    env: Environment
    task: Task
    cache_dir: Path  #: host folder for files fetched or produced for this task
    settings_dir: Path | None = None  #: account settings (credentials), if configured
    #: account tasks run against emulators (``--cloud emulate``): console-only steps are waived
    emulated: bool = False
    #: the setup steps waived against an emulator, each as "type: why"
    waived: list[str] = field(default_factory=list)
    #: actions taken in the episode, for getters and the FAIL rule
    history: list[Any] = field(default_factory=list)
    #: the tamper checks of the evaluation, while it runs sealed (:mod:`.sealed`); None otherwise
    integrity: Integrity | None = None

    def host_path(self, relative: str) -> Path:
        """A host file named by the task (task folder, or the Spider2-V root); under the original's
        ``cache/<task id>/``, the file an earlier step wrote to this task's cache folder."""
        if relative.startswith(self.task.cache_prefix):
            return self.cache_dir / relative.removeprefix(self.task.cache_prefix)
        return self.task.host_path(relative)

    def cache_path(self, name: str) -> Path:
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        return self.cache_dir / name
