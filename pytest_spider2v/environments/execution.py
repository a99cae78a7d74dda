"""What a command run in an environment gives back, in the original guest server's terms.

Its own module because both contracts that run commands use it: the environment's
(:mod:`.base`, through the guest) and the witness's (:mod:`.witness`, through the engine).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExecResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def as_info(self) -> dict[str, object]:
        """The original ``/execute`` reply shape, kept in trajectories for compatibility."""
        return {
            "status": "success" if self.ok else "error",
            "output": self.stdout,
            "error": self.stderr,
            "returncode": self.returncode,
        }
