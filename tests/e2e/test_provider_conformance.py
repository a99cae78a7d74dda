"""What every provider must do, checked against real environments (no mocks).

A provider hands out desktops that answer the guest protocol, restores a snapshot with no trace
of earlier use, keeps concurrent environments apart, and leaves nothing behind. The last two
tests inspect Docker labels and therefore apply to the Docker provider only.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from xml.etree import ElementTree

import docker
import pytest
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import Provider, owner_token
from tests.support.waiting import wait_until

pytestmark = pytest.mark.e2e

SNAPSHOT = "desktop"
LABEL = "pytest-spider2v"
#: The namespace of the accessibility tree's state attributes.
STATE = "{uri:deskat:state.at-spi.gnome.org}"


@pytest.fixture(scope="module")
def env(conformance_provider: Provider) -> Iterator[Environment]:
    environment = conformance_provider.acquire(SNAPSHOT)
    yield environment
    conformance_provider.release(environment)


# -- the guest protocol ---------------------------------------------------------------------------
def test_screenshot_is_png_of_screen_size(env: Environment) -> None:
    data = env.screenshot()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    assert image.size == env.screen_size() == (1920, 1080)


def test_execute_reports_output_and_returncode(env: Environment) -> None:
    ok = env.execute("echo hello")
    assert (ok.returncode, ok.stdout, ok.ok) == (0, "hello\n", True)
    failed = env.execute(["sh", "-c", "echo out; echo err >&2; exit 3"])
    assert (failed.returncode, failed.stdout, failed.stderr) == (3, "out\n", "err\n")
    shell = env.execute("echo $HOME && pwd", shell=True)
    assert shell.stdout.split() == ["/home/user", "/home/user"]
    missing = env.execute(["no-such-program-xyz"])
    assert missing.returncode != 0 and "no-such-program-xyz" in missing.stderr


def test_execute_timeout_is_a_failed_result(env: Environment) -> None:
    started = time.monotonic()
    result = env.execute("sleep 30", timeout=1)
    assert result.returncode != 0 and "timed out" in result.stderr
    assert time.monotonic() - started < 15


def test_run_python_moves_the_pointer(env: Environment) -> None:
    env.run_python("pyautogui.moveTo(11, 13)")
    before = env.run_python("print(tuple(pyautogui.position()))").stdout.strip()
    env.run_python("pyautogui.moveTo(321, 654)")
    after = env.run_python("print(tuple(pyautogui.position()))").stdout.strip()
    assert (before, after) == ("(11, 13)", "(321, 654)")


def test_typed_text_arrives_exactly_including_angle_brackets(env: Environment) -> None:
    """Every printable ASCII character typed with pyautogui reaches the application unchanged."""
    env.upload(b'IFS= read -r line; printf %s "$line" > /tmp/typed.txt\n', "/tmp/readline.sh")
    env.launch(["gnome-terminal", "--", "bash", "/tmp/readline.sh"])
    wait_until(lambda: env.execute("pgrep -f readline.sh", shell=True).ok, timeout=30,
               what="the terminal reading a line")
    # keys go to the focused window: the terminal's, a moment after it is mapped
    wait_until(lambda: env.execute(["xdotool", "getactivewindow", "getwindowname"]).stdout,
               lambda title: "Terminal" in title, timeout=30, what="the terminal to be the active window")
    text = "a<b>c |&;$`'\"x\" {[()]} ~!@#%^*_+=-:?,./"
    env.run_python(f"pyautogui.typewrite({text!r}, interval=0.02); pyautogui.press('enter')")
    typed = wait_until(lambda: env.download("/tmp/typed.txt"), timeout=15, what="the typed line in /tmp/typed.txt")
    assert typed.decode() == text


def test_upload_download_round_trip(env: Environment) -> None:
    payload = bytes(range(256)) * 100
    env.upload(payload, "~/Desktop/nested/dir/blob.bin")
    assert env.download("~/Desktop/nested/dir/blob.bin") == payload
    assert env.download("/home/user/Desktop/nested/dir/blob.bin") == payload
    assert env.download("~/Desktop/does-not-exist.txt") is None


def test_accessibility_tree_shows_launched_application(env: Environment) -> None:
    root = ElementTree.fromstring(env.accessibility_tree())
    assert root.tag == "desktop-frame"
    env.launch(["gedit", "--new-window"])

    def gedit_states() -> set[str] | None:
        """The states of gedit's nodes in the tree; None while gedit is not in it."""
        tree = ElementTree.fromstring(env.accessibility_tree())
        app = next((a for a in tree.findall("application") if a.get("name") == "gedit"), None)
        return None if app is None else {key for node in app.iter() for key in node.attrib if key.startswith(STATE)}

    # gedit's application comes into the tree before its window is shown
    wait_until(gedit_states, lambda states: states is not None and f"{STATE}showing" in states, timeout=60,
               what="gedit in the accessibility tree, showing")


def test_chromium_devtools_reachable_from_host(env: Environment) -> None:
    env.launch("google-chrome --remote-debugging-port=1337 about:blank", shell=True)
    env.launch("socat tcp-listen:9222,fork,reuseaddr tcp:localhost:1337", shell=True)
    with sync_playwright() as playwright:
        browser = wait_until(lambda: playwright.chromium.connect_over_cdp(env.host_url(9222), timeout=5000),
                             timeout=60, what="Chromium DevTools on the published port 9222",
                             retry_on=(PlaywrightError,))
        try:
            page = browser.contexts[0].new_page()
            page.set_content("<title>spider2v</title><h1>conformance</h1>")
            assert page.title() == "spider2v"
            assert page.evaluate("navigator.userAgent").find("Chrome") >= 0
        finally:
            browser.close()


def test_unknown_snapshot_is_a_clear_fault(conformance_provider: Provider) -> None:
    with pytest.raises(EnvironmentFault, match="no-such-snapshot"):
        conformance_provider.acquire("no-such-snapshot")


# -- restoring and isolation ----------------------------------------------------------------------
def test_restore_leaves_no_trace(conformance_provider: Provider) -> None:
    marker = f"/home/user/Desktop/trace-{uuid.uuid4().hex}.txt"
    first = conformance_provider.acquire(SNAPSHOT)
    try:
        first.upload(b"used", marker)
        assert first.download(marker) == b"used"
    finally:
        conformance_provider.release(first)
    second = conformance_provider.acquire(SNAPSHOT)
    try:
        assert second.download(marker) is None
    finally:
        conformance_provider.release(second)


def test_concurrent_environments_are_isolated(conformance_provider: Provider, env: Environment) -> None:
    other = conformance_provider.acquire(SNAPSHOT)
    try:
        assert other.base_url != env.base_url
        env.upload(b"mine", "~/Desktop/isolation.txt")
        assert other.download("~/Desktop/isolation.txt") is None
        other.upload(b"theirs", "~/Desktop/isolation.txt")
        assert env.download("~/Desktop/isolation.txt") == b"mine"
    finally:
        conformance_provider.release(other)


# -- Docker bookkeeping ---------------------------------------------------------------------------
docker_only = pytest.mark.skipif(
    os.environ.get("SPIDER2V_PROVIDER", "docker") != "docker", reason="inspects Docker labels",
)


@docker_only
def test_close_removes_every_container_it_created(new_conformance_provider: Callable[[str], Provider]) -> None:
    provider = new_conformance_provider(f"close-{uuid.uuid4().hex[:6]}")
    envs = [provider.acquire(SNAPSHOT) for _ in range(2)]
    client = docker.from_env()
    worker_filter = {"label": [f"{LABEL}.worker={provider.worker}"]}
    names = {c.name for c in client.containers.list(all=True, filters=worker_filter)}
    assert {e.name for e in envs} <= names  # (plus a booting spare, if the provider keeps one)
    labels = client.containers.get(envs[0].name).labels
    assert labels[LABEL] == "1" and labels[f"{LABEL}.owner"] == owner_token()
    provider.close()
    assert client.containers.list(all=True, filters=worker_filter) == []


@docker_only
def test_only_the_last_acquired_snapshot_keeps_a_spare(new_conformance_provider: Callable[[str], Provider]) -> None:
    """A worker that runs tasks family by family must not keep an idle desktop per family."""
    provider = new_conformance_provider(f"spares-{uuid.uuid4().hex[:6]}")
    client = docker.from_env()

    def containers(snapshot: str) -> list[str]:
        labels = [f"{LABEL}.worker={provider.worker}", f"{LABEL}.snapshot={snapshot}"]
        return [c.name for c in client.containers.list(all=True, filters={"label": labels})]

    try:
        provider.release(provider.acquire("desktop"))
        wait_until(lambda: containers("desktop"), timeout=60, what="the desktop snapshot's spare")
        provider.release(provider.acquire("excel"))
        assert containers("desktop") == []  # acquiring removes other snapshots' spares before it returns
        wait_until(lambda: containers("excel"), lambda spares: len(spares) == 1, timeout=60,
                   what="the excel snapshot's spare, alone")
    finally:
        provider.close()


@docker_only
def test_cleanup_stale_removes_dead_owners_only(conformance_provider: Provider, env: Environment) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead_owner = owner_token(dead.pid)
    dead.wait()
    client = docker.from_env()
    stale = client.containers.run(
        "spider2v/desktop:latest", ["sleep", "600"], detach=True,
        labels={LABEL: "1", f"{LABEL}.owner": dead_owner, f"{LABEL}.worker": "crashed"},
    )
    try:
        assert conformance_provider.cleanup_stale() >= 1
        with pytest.raises(docker.errors.NotFound):
            client.containers.get(stale.id)
        assert client.containers.get(env.name).status == "running"  # a live owner's: untouched
    finally:
        try:
            stale.remove(force=True)
        except docker.errors.NotFound:
            pass
