"""The guest server's client: :class:`~.base.Environment` over HTTP, the way the host talks to a
running desktop. The endpoints follow the original harness (reference section 4.1) so that its
task scripts and habits carry over; ``/health`` is ours, for polling readiness.

``httpx`` is imported when an environment is made, not when the plugin loads: collecting tasks
never talks to a desktop, and every xdist worker would pay for the import again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_spider2v.environments.base import Environment, EnvironmentFault, ExecResult

if TYPE_CHECKING:
    import httpx


@dataclass
class HttpEnvironment(Environment):
    """A restored desktop reachable over HTTP.

    ``ports`` maps guest ports (5000 server, 9222 Chromium DevTools, app ports) to the host
    ports they are published on, all bound to 127.0.0.1. An environment without ``display``
    has no screen: the harness takes no screenshots or trees of it, and its Python actions run
    without pyautogui, which needs one.
    """

    name: str
    base_url: str
    ports: dict[int, int] = field(default_factory=dict)
    request_timeout: float = 90.0
    display: bool = True
    image: str = field(default="", kw_only=True)

    def __post_init__(self) -> None:
        import httpx

        self._http = httpx.Client(base_url=self.base_url, timeout=self.request_timeout)

    # -- plumbing ---------------------------------------------------------------------------
    def _request(self, method: str, path: str, *, timeout: float | None = None, **kw: Any) -> httpx.Response:
        import httpx

        try:
            resp = self._http.request(method, path, timeout=timeout or self.request_timeout, **kw)
        except httpx.HTTPError as exc:
            raise EnvironmentFault(f"{self.name}: {method} {path} failed: {exc!r}") from exc
        if resp.status_code >= 500:
            raise EnvironmentFault(f"{self.name}: {method} {path} -> {resp.status_code}: {resp.text[:500]}")
        return resp

    def host_url(self, guest_port: int, scheme: str = "http") -> str:
        """URL on the host for a port published from the guest."""
        try:
            return f"{scheme}://127.0.0.1:{self.ports[guest_port]}"
        except KeyError:
            raise EnvironmentFault(f"{self.name}: guest port {guest_port} is not published") from None

    def close(self) -> None:
        self._http.close()

    # -- readiness --------------------------------------------------------------------------
    def wait_ready(self, timeout: float = 120.0, interval: float = 0.25) -> None:
        """Poll ``/health`` until the desktop (X, window manager, AT-SPI) answers ready."""
        import httpx

        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            try:
                resp = self._http.get("/health", timeout=5)
                if resp.status_code == 200:
                    return
                last = resp.text[:300]
            except httpx.HTTPError as exc:
                last = repr(exc)
            time.sleep(interval)
        raise EnvironmentFault(f"{self.name}: not ready after {timeout:.0f}s ({last})")

    # -- observation ------------------------------------------------------------------------
    def screenshot(self) -> bytes:
        """PNG of the whole screen with the pointer drawn."""
        return self._request("GET", "/screenshot").content

    def wait_settled(self, quiet: float = 1.0, timeout: float = 10.0) -> bool:
        """Wait until the screen has not changed for ``quiet`` seconds (a blinking caret does not
        count); False when it still changed at ``timeout``. The guest compares the frames."""
        reply = self._request("POST", "/settle", json={"quiet": quiet, "timeout": timeout}, timeout=timeout + 30)
        return bool(reply.json()["settled"])

    def accessibility_tree(self, walk: str = "fast") -> str:
        """AT-SPI tree as XML (reference section 4.2). ``walk="naive"`` asks for it the original
        harness's way, one round trip per attribute: the same tree, many times slower (the
        baseline of ``benchmarks/harness.py`` and of the tree-equality test)."""
        params = {"walk": walk} if walk != "fast" else None
        return self._request("GET", "/accessibility", params=params).json()["AT"]

    def screen_size(self) -> tuple[int, int]:
        data = self._request("POST", "/screen_size").json()
        return int(data["width"]), int(data["height"])

    # -- watching ---------------------------------------------------------------------------
    def live_view(self, *, view_only: bool = True) -> str:
        """Serve the desktop to a browser (noVNC); the URL to open on the host."""
        reply = self._request("POST", "/live", json={"view_only": view_only})
        if reply.status_code != 200:
            raise EnvironmentFault(f"{self.name}: live view: {reply.text[:300]}")
        data = reply.json()
        return f"{self.host_url(int(data['port']))}/{data['page']}"

    def start_recording(self, guest_path: str) -> None:
        """Record the screen into ``guest_path`` (an MP4) until :meth:`stop_recording`."""
        reply = self._request("POST", "/recording/start", json={"path": guest_path})
        if reply.status_code != 200:
            raise EnvironmentFault(f"{self.name}: recording: {reply.text[:300]}")

    def stop_recording(self) -> dict[str, Any]:
        """Finish the recording: ``path`` (in the guest), ``seconds``, ffmpeg's ``errors``."""
        reply = self._request("POST", "/recording/stop", timeout=60)
        if reply.status_code != 200:
            raise EnvironmentFault(f"{self.name}: recording: {reply.text[:300]}")
        return dict(reply.json())

    # -- commands ---------------------------------------------------------------------------
    def execute(self, command: str | list[str], *, shell: bool = False, timeout: float = 300.0) -> ExecResult:
        """Run a command to completion as the desktop user."""
        resp = self._request(
            "POST", "/execute", json={"command": command, "shell": shell, "timeout": timeout},
            timeout=timeout + 30,
        )
        data = resp.json()
        if data.get("status") == "error" and "returncode" not in data:
            raise EnvironmentFault(f"{self.name}: execute {command!r}: {data.get('message')}")
        return ExecResult(int(data["returncode"]), data.get("output") or "", data.get("error") or "")

    def launch(self, command: str | list[str], *, shell: bool = False) -> None:
        """Start a process without waiting for it."""
        self._request("POST", "/setup/launch", json={"command": command, "shell": shell})

    def open(self, path: str) -> None:
        """``xdg-open`` a guest file; a missing file is an error."""
        resp = self._request("POST", "/setup/open_file", json={"path": path})
        if resp.status_code != 200:
            raise EnvironmentFault(f"{self.name}: open {path}: {resp.text[:300]}")

    def activate_window(self, window_name: str, *, strict: bool = False, by_class: bool = False) -> None:
        self._request(
            "POST", "/setup/activate_window",
            json={"window_name": window_name, "strict": strict, "by_class": by_class},
        )

    # -- files ------------------------------------------------------------------------------
    def upload(self, data: bytes | Path, guest_path: str) -> None:
        payload = data.read_bytes() if isinstance(data, Path) else data
        resp = self._request(
            "POST", "/setup/upload",
            data={"file_path": guest_path},
            files={"file_data": (Path(guest_path).name, payload)},
        )
        if resp.status_code != 200:
            raise EnvironmentFault(f"{self.name}: upload to {guest_path}: {resp.text[:300]}")

    def download(self, guest_path: str) -> bytes | None:
        """Bytes of a guest file, or None when it does not exist."""
        resp = self._request("POST", "/file", data={"file_path": guest_path})
        if resp.status_code == 404:
            return None
        if resp.status_code != 200:
            raise EnvironmentFault(f"{self.name}: download {guest_path}: {resp.status_code}")
        return resp.content
