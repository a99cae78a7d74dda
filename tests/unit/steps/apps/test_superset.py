"""superset_webui_init: parameter handling and URL logic (no browser, no Docker)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pytest_spider2v.registry import check_parameters, setup_steps
from pytest_spider2v.steps.apps import superset
from pytest_spider2v.testing.factories import make_context
from pytest_spider2v.testing.fakes import FakeEnvironment


def test_registered_with_original_parameters():
    fn = setup_steps.get("superset_webui_init")
    assert fn is superset.superset_webui_init
    # the original's parameters bind; unknown ones are rejected
    assert check_parameters(fn, 1, {"listening_port": 9222, "url": "http://localhost:8088"}) is None
    assert check_parameters(fn, 1, {}) is None
    assert check_parameters(fn, 1, {"actions": ["login"]}) is not None


@pytest.mark.parametrize(
    ("url", "root", "target", "login"),
    [
        ("http://localhost:8088", "http://localhost:8088", "http://localhost:8088/", "http://localhost:8088/login/"),
        ("http://localhost:8088/", "http://localhost:8088", "http://localhost:8088/", "http://localhost:8088/login/"),
        (
            "http://localhost:8088/chart/list/",
            "http://localhost:8088",
            "http://localhost:8088/chart/list/",
            "http://localhost:8088/login/?next=http://localhost:8088/chart/list/",
        ),
    ],
)
def test_urls(url, root, target, login):
    assert superset.site_root(url) == root
    assert superset.normalise_url(url) == target
    assert superset.login_url(url) == login


@pytest.mark.parametrize("url", ["localhost:8088", "ftp://localhost/", "", "/chart/list/"])
def test_bad_url_rejected(url):
    with pytest.raises(ValueError):
        superset.normalise_url(url)


def test_bad_url_fails_before_browser():
    env = FakeEnvironment()
    with pytest.raises(ValueError):
        superset.superset_webui_init(make_context(env), url="nonsense")
    assert env.calls == []  # the browser was not reached


def test_is_login_page():
    assert superset.is_login_page("http://localhost:8088/login/")
    assert superset.is_login_page("http://localhost:8088/login/?next=http://localhost:8088/chart/list/")
    assert not superset.is_login_page("http://localhost:8088/chart/list/")
    assert not superset.is_login_page("http://localhost:8088/superset/welcome/")


def test_find_tab_prefix():
    pages = [SimpleNamespace(url="about:blank"), SimpleNamespace(url="http://localhost:8088/chart/list/")]
    assert superset.find_tab(pages, "http://localhost:8088") is pages[1]
    assert superset.find_tab(pages, "http://localhost:8088/dashboard/list/") is None
    assert superset.find_tab([], "http://localhost:8088") is None
