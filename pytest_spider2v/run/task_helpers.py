"""What setup steps and getters share, beside the :class:`~.task_context.TaskContext` they receive:
the error raised when a task asks what cannot be done, the original server's command timeout, the
log line of a failing command, and the reading of a host file a task names.

They live in the core rather than in ``steps/`` so that getters import no step: the extension
rooms stay independent of each other (the import contracts in ``pyproject.toml``). Task
fingerprints follow this module's code as they follow the extensions'
(:data:`pytest_spider2v.validate.fingerprint.SHARED_HELPERS`), so moving these here moved none.
"""

from __future__ import annotations

import logging

from pytest_spider2v.environments.base import ExecResult
from pytest_spider2v.run.task_context import TaskContext

logger = logging.getLogger(__name__)

#: The original server's ``/execute`` timeout, which also caps init scripts.
SCRIPT_TIMEOUT = 300.0
#: How much of a failing command's output is worth a log line.
TAIL_CHARS = 2000


class StepError(RuntimeError):
    """A setup step cannot do what the task asks (bad task data or an unmet condition)."""


def tail(text: str, limit: int = TAIL_CHARS) -> str:
    """The end of a command's output, where the error usually is."""
    text = text.strip()
    return text if len(text) <= limit else "..." + text[-limit:]


def log_failure(what: str, result: ExecResult) -> None:
    """The original only logs a failing setup command; we log enough to diagnose it."""
    logger.warning(
        "%s exited with %d\n--- stdout (tail) ---\n%s\n--- stderr (tail) ---\n%s",
        what, result.returncode, tail(result.stdout), tail(result.stderr),
    )


def read_host_file(ctx: TaskContext, src: str, step: str) -> bytes:
    """Bytes of a host file the task names; a missing file names both spellings of it."""
    path = ctx.host_path(src)
    if not path.is_file():
        raise StepError(f"{step}: host file not found: {path} (task gives src={src!r})")
    return path.read_bytes()


def reject_url(src: str, step: str) -> None:
    """Scripts fetched from the web cannot work here: there is no internet, so say so."""
    if src.startswith(("http://", "https://")):
        raise StepError(f"{step}: src {src!r} is a URL; this project runs offline, ship the script with the task")
