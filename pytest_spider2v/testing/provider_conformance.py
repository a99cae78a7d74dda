"""The provider conformance suite: what every provider and its environments must do, checked
against real environments, as base classes a provider's own tests subclass.

A provider author writes one test class and supplies a ``provider`` fixture (class scope or
wider: the suite shares one environment per class, because a desktop takes seconds to start)::

    from pytest_spider2v.testing.provider_conformance import ProviderConformance

    class TestMyProvider(ProviderConformance):
        @pytest.fixture(scope="class")
        @classmethod
        def provider(cls) -> Iterator[Provider]:
            made = MyProvider(owner=owner_token(), worker="conformance")
            yield made
            made.close()

The fixture may as well come from a ``conftest.py``, parametrised to run the suite against
several providers. Three levels, each the one before plus more:

- :class:`ProviderConformance`: any provider. Commands run as the desktop user in the home folder
  and report their output, return code, missing programs and timeouts; files go up and come back
  byte for byte; an unknown snapshot is a fault naming it; every environment starts pristine and
  none sees another's files; cleaning up stale resources never touches a live environment.
- :class:`ScreenConformance`: an environment with a screen: a PNG screenshot of the size the
  environment reports, an accessibility tree rooted in the desktop frame, a screen that settles.
- :class:`DesktopConformance`: the Spider2-V desktop the tasks are written for (1920x1080, the
  user ``/home/user``, pyautogui actions, GNOME applications in the accessibility tree, Chromium's
  DevTools reachable from the host): what the ``desktop`` snapshot of the project's images offers.

Class attributes choose what the suite asks for: :attr:`ProviderConformance.snapshot` (the
snapshot every test acquires) and :attr:`ProviderConformance.unknown_snapshot`. What a provider
offers beyond the contract (Docker's labels and spares, say) its own tests add as methods of the
subclass, beside the inherited ones.
"""

from __future__ import annotations

import io
import time
import uuid
from collections.abc import Iterator
from xml.etree import ElementTree

import pytest
from PIL import Image

from pytest_spider2v.environments.base import Environment, EnvironmentFault
from pytest_spider2v.environments.provider import Provider
from pytest_spider2v.testing.waiting import wait_until

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: The namespace of the accessibility tree's state attributes.
STATE = "{uri:deskat:state.at-spi.gnome.org}"


class ProviderConformance:
    """The contract of every provider and of the environments it hands out (see the module).

    Needs a ``provider`` fixture of class scope or wider; subclass it as ``Test...``.
    """

    #: the snapshot every test acquires: one the provider can restore
    snapshot: str = "desktop"
    #: a snapshot name no provider knows: acquiring it must fail naming it
    unknown_snapshot: str = "no-such-snapshot"

    @pytest.fixture(scope="class")
    @classmethod
    def env(cls, provider: Provider) -> Iterator[Environment]:
        """One environment of :attr:`snapshot` shared by the class's tests, released afterwards."""
        environment = provider.acquire(cls.snapshot)
        yield environment
        provider.release(environment)

    # -- commands -----------------------------------------------------------------------------
    def test_execute_reports_output_and_returncode(self, env: Environment) -> None:
        ok = env.execute("echo hello")
        assert (ok.returncode, ok.stdout, ok.ok) == (0, "hello\n", True)
        failed = env.execute(["sh", "-c", "echo out; echo err >&2; exit 3"])
        assert (failed.returncode, failed.stdout, failed.stderr, failed.ok) == (3, "out\n", "err\n", False)
        missing = env.execute(["no-such-program-xyz"])
        assert missing.returncode != 0 and "no-such-program-xyz" in missing.stderr

    def test_commands_run_in_the_home_folder(self, env: Environment) -> None:
        """``$HOME`` is where commands start and what ``~/`` names in a file's guest path."""
        home, cwd = env.execute("echo $HOME && pwd", shell=True).stdout.split()
        assert home == cwd
        env.upload(b"at home", "~/conformance-home.txt")
        assert env.execute(["cat", "conformance-home.txt"]).stdout == "at home"
        assert env.execute(["cat", "~/conformance-home.txt"]).stdout == "at home"

    def test_execute_timeout_is_a_failed_result(self, env: Environment) -> None:
        started = time.monotonic()
        result = env.execute("sleep 30", timeout=1)
        assert result.returncode != 0 and "timed out" in result.stderr
        assert time.monotonic() - started < 15

    def test_launch_does_not_wait(self, env: Environment) -> None:
        started = time.monotonic()
        env.launch("sleep 2; echo launched > ~/conformance-launched.txt", shell=True)
        assert time.monotonic() - started < 2
        landed = wait_until(lambda: env.download("~/conformance-launched.txt"), timeout=30,
                            what="the launched command's file")
        assert landed == b"launched\n"

    # -- files --------------------------------------------------------------------------------
    def test_upload_download_round_trip(self, env: Environment) -> None:
        payload = bytes(range(256)) * 100
        env.upload(payload, "~/Desktop/nested/dir/blob.bin")
        assert env.download("~/Desktop/nested/dir/blob.bin") == payload
        assert env.download("~/Desktop/does-not-exist.txt") is None

    # -- restoring, isolation, cleaning up ----------------------------------------------------
    def test_unknown_snapshot_is_a_clear_fault(self, provider: Provider) -> None:
        with pytest.raises(EnvironmentFault, match=self.unknown_snapshot):
            provider.acquire(self.unknown_snapshot)

    def test_restore_leaves_no_trace(self, provider: Provider) -> None:
        marker = f"~/Desktop/trace-{uuid.uuid4().hex}.txt"
        first = provider.acquire(self.snapshot)
        try:
            first.upload(b"used", marker)
            assert first.download(marker) == b"used"
        finally:
            provider.release(first)
        second = provider.acquire(self.snapshot)
        try:
            assert second.download(marker) is None
        finally:
            provider.release(second)

    def test_concurrent_environments_are_isolated(self, provider: Provider, env: Environment) -> None:
        other = provider.acquire(self.snapshot)
        try:
            assert other is not env
            env.upload(b"mine", "~/Desktop/isolation.txt")
            assert other.download("~/Desktop/isolation.txt") is None
            other.upload(b"theirs", "~/Desktop/isolation.txt")
            assert env.download("~/Desktop/isolation.txt") == b"mine"
        finally:
            provider.release(other)

    def test_cleanup_stale_spares_live_environments(self, provider: Provider, env: Environment) -> None:
        """Only the leftovers of owners that are gone are stale: this run's environment still answers."""
        removed = provider.cleanup_stale()
        assert isinstance(removed, int) and removed >= 0
        assert env.execute("echo alive").stdout == "alive\n"


class ScreenConformance(ProviderConformance):
    """:class:`ProviderConformance`, and what an environment with a screen shows."""

    #: the screen size every environment must have; None: any size, as long as it is the one reported
    screen_size: tuple[int, int] | None = None

    def test_has_a_display(self, env: Environment) -> None:
        assert env.display is True

    def test_screenshot_is_png_of_screen_size(self, env: Environment) -> None:
        data = env.screenshot()
        assert data[:8] == PNG_SIGNATURE
        assert Image.open(io.BytesIO(data)).size == env.screen_size()
        if self.screen_size is not None:
            assert env.screen_size() == self.screen_size

    def test_accessibility_tree_is_rooted_in_the_desktop_frame(self, env: Environment) -> None:
        assert ElementTree.fromstring(env.accessibility_tree()).tag == "desktop-frame"

    def test_screen_settles(self, env: Environment) -> None:
        assert isinstance(env.wait_settled(quiet=0.5, timeout=10), bool)


class DesktopConformance(ScreenConformance):
    """:class:`ScreenConformance`, and the Spider2-V desktop the tasks are written for: its
    screen, its user, its actions and its applications (the ``desktop`` snapshot)."""

    screen_size = (1920, 1080)
    #: the desktop user's home, which task files name in full
    home: str = "/home/user"

    def test_home_is_the_desktop_users(self, env: Environment) -> None:
        assert env.execute("echo $HOME && pwd", shell=True).stdout.split() == [self.home, self.home]
        env.upload(b"by full path", f"{self.home}/Desktop/full-path.txt")
        assert env.download("~/Desktop/full-path.txt") == b"by full path"

    def test_run_python_moves_the_pointer(self, env: Environment) -> None:
        env.run_python("pyautogui.moveTo(11, 13)")
        before = env.run_python("print(tuple(pyautogui.position()))").stdout.strip()
        env.run_python("pyautogui.moveTo(321, 654)")
        after = env.run_python("print(tuple(pyautogui.position()))").stdout.strip()
        assert (before, after) == ("(11, 13)", "(321, 654)")

    def test_typed_text_arrives_exactly_including_angle_brackets(self, env: Environment) -> None:
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
        assert typed is not None and typed.decode() == text

    def test_accessibility_tree_shows_launched_application(self, env: Environment) -> None:
        env.launch(["gedit", "--new-window"])

        def gedit_states() -> set[str] | None:
            """The states of gedit's nodes in the tree; None while gedit is not in it."""
            tree = ElementTree.fromstring(env.accessibility_tree())
            app = next((a for a in tree.findall("application") if a.get("name") == "gedit"), None)
            return None if app is None else {key for node in app.iter() for key in node.attrib if key.startswith(STATE)}

        # gedit's application comes into the tree before its window is shown
        wait_until(gedit_states, lambda states: states is not None and f"{STATE}showing" in states, timeout=60,
                   what="gedit in the accessibility tree, showing")

    def test_chromium_devtools_reachable_from_host(self, env: Environment) -> None:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

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
