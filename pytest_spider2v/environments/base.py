"""The environment contract: what setup steps, getters, the episode and the evaluation may ask of
a restored desktop, whichever provider made it and however it is reached.

:class:`Environment` is a protocol: the guest server's HTTP client (:mod:`.http`) implements it,
and so do the tests' stand-ins (a folder of the host as the guest, a screen that is a picture), by
subclassing it, so a method the contract gains is one they must implement too. The methods and
their reply shapes follow the original harness's guest server (reference section 4.1).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pytest_spider2v.environments.execution import ExecResult

if TYPE_CHECKING:
    from pytest_spider2v.environments.witness import Witness

#: Prefix of every pyautogui action, as in the original ``execute_python_command``.
PYAUTOGUI_PREFIX = "import pyautogui; import time; pyautogui.FAILSAFE = False; "


class EnvironmentFault(RuntimeError):
    """The environment (container, guest server, desktop) failed: a harness error, not a score."""


class BrokenFromInside(EnvironmentFault):
    """The environment was broken by what ran in it: a limit reached (memory, processes), or the
    guest server gone while its container runs. During an agent's action that is the agent's
    doing, scored 0; anywhere else (a setup step, the evaluation) still a fault of the harness."""


@runtime_checkable
class Environment(Protocol):
    """A restored desktop (or, with ``display`` false, a machine without a screen: the harness
    takes no screenshots or trees of it, and its Python actions run without pyautogui).

    Every method that reaches the environment raises :class:`EnvironmentFault` when the
    environment itself fails, so a broken container is a harness error and never a score.
    """

    name: str
    display: bool
    #: the cluster node it runs on, for providers that place environments on one; "" here
    node: str = ""
    #: the image it was started from, ``name@digest`` (a run's manifest lists them: two runs on
    #: different builds of one image are not comparable); "" for an environment without one
    image: str = ""
    #: the environment seen from its engine, outside the agent's reach (:mod:`.witness`); None
    #: for an environment without one (a test's stand-in), whose evaluation is not sealed
    witness: Witness | None = None

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        """Where the host reaches a port of the guest (Chromium's DevTools, an app's web server)."""
        ...

    def close(self) -> None:
        """Let go of the connection to the environment (the provider discards the environment)."""
        ...

    def agent_starts(self) -> None:
        """The agent acts from now on: a limit reached from now is its doing; one reached before
        (while the setup ran) was not. Environments without limits have nothing to note."""
        return None

    # -- observation ----------------------------------------------------------------------------
    def screenshot(self) -> bytes:
        """PNG of the whole screen with the pointer drawn."""
        ...

    def wait_settled(self, quiet: float = 1.0, timeout: float = 10.0) -> bool:
        """Wait until the screen has not changed for ``quiet`` seconds (a blinking caret does not
        count); False when it still changed at ``timeout``."""
        ...

    def accessibility_tree(self, walk: str = "fast") -> str:
        """The AT-SPI tree as the original harness's XML (reference section 4.2); ``walk="naive"``
        asks for it the original's way, one round trip per attribute."""
        ...

    def screen_size(self) -> tuple[int, int]:
        ...

    # -- watching -------------------------------------------------------------------------------
    def live_view(self, *, view_only: bool = True) -> str:
        """Serve the desktop to a browser; the URL to open on the host."""
        ...

    def start_recording(self, guest_path: str) -> None:
        """Record the screen into ``guest_path`` (an MP4) until :meth:`stop_recording`."""
        ...

    def stop_recording(self) -> dict[str, Any]:
        """Finish the recording: ``path`` (in the guest), ``seconds``, the recorder's ``errors``."""
        ...

    # -- commands -------------------------------------------------------------------------------
    def execute(self, command: str | list[str], *, shell: bool = False, timeout: float = 300.0) -> ExecResult:
        """Run a command to completion as the desktop user."""
        ...

    def run_python(self, code: str, *, timeout: float = 90.0) -> ExecResult:
        """Run one action's code in a fresh guest interpreter (the action path); on a screen,
        after the pyautogui prefix every action block of the original had."""
        prefix = PYAUTOGUI_PREFIX if self.display else ""
        return self.execute(["python3", "-c", prefix + code], timeout=timeout)

    def launch(self, command: str | list[str], *, shell: bool = False) -> None:
        """Start a process without waiting for it."""
        ...

    def open(self, path: str) -> None:
        """``xdg-open`` a guest file; a missing file is an error."""
        ...

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        ...

    # -- files ----------------------------------------------------------------------------------
    def upload(self, data: bytes | Path, guest_path: str) -> None:
        ...

    def download(self, guest_path: str) -> bytes | None:
        """Bytes of a guest file, or None when it does not exist."""
        ...
