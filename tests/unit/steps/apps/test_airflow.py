"""The Airflow web-UI steps: parameter handling and the tab/sign-in sequence (no browser)."""

from __future__ import annotations

import pytest

from pytest_spider2v.registry import check_parameters, load_extensions, setup_steps
from pytest_spider2v.run.task_helpers import StepError
from pytest_spider2v.steps.apps import airflow
from pytest_spider2v.steps.webui import Action

load_extensions()


def test_both_names_are_registered_and_available() -> None:
    assert setup_steps.get("astro_webui_init") is airflow.astro_webui_init
    assert setup_steps.get("airflow_webui_init") is airflow.astro_webui_init
    assert "astro_webui_init" in setup_steps.available()
    assert setup_steps.get("astro_refresh_page") is airflow.astro_refresh_page


#: The original tasks' parameters, verbatim (all 36 published astro_webui_init steps have this form).
ORIGINAL = {
    "listening_port": 9222,
    "url": "http://localhost:8080",
    "actions": [{"type": "login", "username": "admin", "password": "admin"}],
}


def test_original_parameters_bind() -> None:
    params = {"listening_port": 9222, "url": "http://localhost:8080", "actions": ["login"]}
    assert check_parameters(setup_steps.get("astro_webui_init"), 1, params) is None
    assert check_parameters(setup_steps.get("astro_webui_init"), 1, ORIGINAL) is None
    assert check_parameters(setup_steps.get("astro_refresh_page"), 1, {}) is None
    assert check_parameters(setup_steps.get("astro_webui_init"), 1, {}) is None
    assert check_parameters(setup_steps.get("astro_webui_init"), 1, {"bogus": 1}) is not None


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://localhost:8080", "http://localhost:8080"),
        ("localhost:8080", "http://localhost:8080"),
        ("  http://127.0.0.1:8080/home ", "http://127.0.0.1:8080/home"),
    ],
)
def test_normalise_url(given: str, expected: str) -> None:
    assert airflow.normalise_url(given) == expected


@pytest.mark.parametrize("bad", ["", "   ", "ftp://localhost/", "http://"])
def test_normalise_url_rejects(bad: str) -> None:
    with pytest.raises(StepError):
        airflow.normalise_url(bad)


def test_normalise_actions_takes_names() -> None:
    assert airflow.normalise_actions(["login"]) == [Action("login")]
    assert airflow.normalise_actions(("login",)) == [Action("login")]
    assert airflow.normalise_actions("login") == [Action("login")]
    assert airflow.normalise_actions([]) == []
    assert airflow.normalise_actions(None) == []
    with pytest.raises(StepError, match="unknown action 'logout'"):
        airflow.normalise_actions(["login", "logout"])


def test_normalise_actions_takes_the_original_dicts() -> None:
    assert airflow.normalise_actions(ORIGINAL["actions"]) == [
        Action("login", {"username": "admin", "password": "admin"})
    ]
    assert airflow.normalise_actions({"type": "login"}) == [Action("login")]
    with pytest.raises(StepError, match="unknown action 'logout'"):
        airflow.normalise_actions([{"type": "logout"}])


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([{"type": "login", "user": "admin"}], "does not take user"),
        ([{"type": "login", "username": ""}], "username must be a non-empty string"),
        ([{"type": "login", "password": 1234}], "password must be a non-empty string"),
        ([{"username": "admin"}], "a dict with 'type'"),
        (42, "actions must be a list"),
    ],
)
def test_normalise_actions_rejects(bad: object, message: str) -> None:
    with pytest.raises(StepError, match=message):
        airflow.normalise_actions(bad)


class FakePage:
    def __init__(self, log: list[str], name: str, editable_after: int = 0, signed_in: bool = False) -> None:
        self.log, self.name = log, name
        self.url = "about:blank"
        self.editable_after = editable_after
        self.signed_in = signed_in
        self.closed = False
        self.fields: dict[str, str] = {}

    def goto(self, url: str, timeout: int) -> None:
        self.log.append(f"{self.name} goto {url}")
        self.url = url + ("/home" if self.signed_in else "/login/")

    def reload(self, timeout: int) -> None:
        self.log.append(f"{self.name} reload")

    def wait_for_selector(self, selector: str, state: str, timeout: int) -> None:
        if self.editable_after > 0:
            self.editable_after -= 1
            from playwright.sync_api import Error

            raise Error("Timeout waiting for selector")

    def is_editable(self, selector: str) -> bool:
        return True

    def fill(self, selector: str, value: str) -> None:
        self.fields[selector] = value

    def expect_navigation(self, timeout: int):
        page = self

        class Nav:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                page.url = page.url.replace("/login/", "/home")
                page.signed_in = True
                return False

        return Nav()

    def click(self, selector: str) -> None:
        self.log.append(f"{self.name} submit {self.fields}")

    def evaluate(self, script: str) -> None:
        self.log.append(f"{self.name} evaluate {script}")

    def query_selector(self, selector: str):
        if selector == airflow.AUTO_REFRESH_ON:
            return None
        if selector == airflow.USERNAME_SELECTOR:
            return None if self.signed_in else object()
        return object() if self.signed_in else None

    def wait_for_load_state(self, state: str, timeout: int) -> None:
        self.log.append(f"{self.name} settled")

    def close(self) -> None:
        self.closed = True
        self.log.append(f"{self.name} closed")

    def bring_to_front(self) -> None:
        pass


class FakeContext:
    def __init__(self, log: list[str], editable_after: int = 0, signed_in: bool = False) -> None:
        self.log = log
        self.editable_after = editable_after
        self.signed_in = signed_in
        self.pages = [FakePage(log, "first")]

    def new_page(self) -> FakePage:
        page = FakePage(self.log, "airflow", self.editable_after, self.signed_in)
        self.pages.append(page)
        return page


class FakeBrowser:
    def __init__(self, context: FakeContext) -> None:
        self.contexts = [context]


def test_open_airflow_signs_in_and_closes_the_first_tab() -> None:
    log: list[str] = []
    context = FakeContext(log, editable_after=2)
    airflow.open_airflow(FakeBrowser(context), "http://localhost:8080", [Action("login")], "admin", "admin")
    assert log == [
        "airflow goto http://localhost:8080",
        "airflow reload",
        "airflow reload",
        "airflow submit {'input#username': 'admin', 'input#password': 'admin'}",
        "airflow settled",
        "airflow evaluate localStorage.setItem('dagsDisableAutoRefresh', 'true')",
        "first closed",
    ]
    assert context.pages[1].url.endswith("/home")


def test_open_airflow_gives_up_when_the_form_never_appears(monkeypatch) -> None:
    log: list[str] = []
    context = FakeContext(log, editable_after=99)
    with pytest.raises(StepError, match="login form did not appear"):
        airflow.open_airflow(FakeBrowser(context), "http://localhost:8080", [Action("login")], "admin", "admin")
    assert log.count("airflow reload") == airflow.LOGIN_TRIES - 1


def test_open_airflow_skips_the_form_when_already_signed_in() -> None:
    log: list[str] = []
    context = FakeContext(log, signed_in=True)
    airflow.open_airflow(FakeBrowser(context), "http://localhost:8080", [Action("login")], "admin", "admin")
    assert log == ["airflow goto http://localhost:8080", "airflow settled", "airflow evaluate localStorage.setItem('dagsDisableAutoRefresh', 'true')", "first closed"]


def test_open_airflow_without_actions_only_opens_the_page() -> None:
    log: list[str] = []
    airflow.open_airflow(FakeBrowser(FakeContext(log)), "http://localhost:8080", [], "admin", "admin")
    assert log == ["airflow goto http://localhost:8080", "airflow settled", "airflow evaluate localStorage.setItem('dagsDisableAutoRefresh', 'true')", "first closed"]


def test_open_airflow_signs_in_with_the_actions_credentials() -> None:
    log: list[str] = []
    actions = airflow.normalise_actions([{"type": "login", "username": "ops", "password": "s3cret"}])
    airflow.open_airflow(FakeBrowser(FakeContext(log)), "http://localhost:8080", actions, "admin", "admin")
    assert "airflow submit {'input#username': 'ops', 'input#password': 's3cret'}" in log


def test_refresh_reloads_only_the_first_tab() -> None:
    log: list[str] = []
    context = FakeContext(log)
    context.new_page()
    airflow.refresh_first_tab(FakeBrowser(context))
    assert log == ["first reload", "first settled"]


def test_refresh_without_a_tab_fails() -> None:
    context = FakeContext([])
    context.pages = []
    with pytest.raises(StepError, match="no tab to reload"):
        airflow.refresh_first_tab(FakeBrowser(context))
