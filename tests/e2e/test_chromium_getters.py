"""Browser and dbt getters against a real desktop container (image spider2v/desktop:latest).

Nothing is mocked: Chromium is started in the guest by the ``google_chrome_browser`` step on a
``file:///`` page, the address bar is read from the guest's accessibility tree, and pages are
opened through the forwarded DevTools port, exactly as during a task's evaluation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import pytest_spider2v.getters.web
import pytest_spider2v.providers.docker.provider
import pytest_spider2v.steps.chrome  # noqa: F401  (registers google_chrome_browser)
from pytest_spider2v.environments.base import Environment
from pytest_spider2v.registry import getters, setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.testing.waiting import wait_until

pytestmark = pytest.mark.e2e

IMAGE = "spider2v/desktop:latest"
WORK = "/home/user/e2e"
PAGE = f"{WORK}/page.html"
PAGE_URL = f"file://{PAGE}"
TITLE = "Spider2-V web getters"
HTML = f"""<!doctype html><html><head><title>{TITLE}</title></head><body>
<h1 id="present">visible heading</h1><p id="hidden" style="display:none">hidden text</p>
</body></html>"""
ADDRESS_BAR_TIMEOUT = 60.0
ADDRESS_BAR: dict[str, object] = {"type": "active_url_from_accessTree", "goto_prefix": "file://"}


@pytest.fixture(scope="module")
def env(desktop_env: Environment) -> Environment:
    desktop_env.execute(["mkdir", "-p", WORK])
    desktop_env.upload(HTML.encode(), PAGE)
    return desktop_env


@pytest.fixture
def ctx(env: Environment, make_context) -> TaskContext:
    return make_context(env, "chromium")


@pytest.fixture(scope="module")
def browser_on_page(env: Environment, make_context) -> str:
    """Chromium started by the task step on the local page; the page's URL, once the getter
    reads it from the address bar (the bar comes into the accessibility tree a while after the
    window, and may show nothing or part of the URL before the page is loaded)."""
    ctx = make_context(env, "chromium")
    setup_steps.get("google_chrome_browser")(ctx, debugging_port=1337, listening_port=9222, urls=[PAGE_URL])
    return wait_until(lambda: get(ctx, ADDRESS_BAR), lambda url: url == PAGE_URL, timeout=ADDRESS_BAR_TIMEOUT,
                      what=f"Chromium's address bar in the guest's accessibility tree to show {PAGE_URL}")


def get(ctx: TaskContext, spec: dict[str, object]) -> object:
    return getters.get(str(spec["type"]))(ctx, spec)


def script(ctx: TaskContext, name: str, stdout: str) -> dict[str, str]:
    """A task evaluation script (host file) that prints ``stdout``; the getter spec keys for it."""
    (ctx.task.root / name).write_text(f"#!/bin/bash\nprintf '%s' '{stdout}'\n")
    return {"src": name, "dest": f"{WORK}/{name}"}


def test_active_url_from_access_tree_reads_guest_address_bar(browser_on_page: str, ctx: TaskContext) -> None:
    # the fixture waited until the bar showed the page; a task's own context reads the same
    assert get(ctx, ADDRESS_BAR) == browser_on_page == PAGE_URL
    assert "Chromium" in ctx.env.accessibility_tree()  # the guest's name, whatever the host arch


def test_active_tab_info_reopens_the_active_url(browser_on_page: str, ctx: TaskContext) -> None:
    info = get(ctx, {"type": "active_tab_info", "goto_prefix": "file://"})
    assert isinstance(info, dict)
    assert info["title"] == TITLE
    assert info["url"] == PAGE_URL
    assert 'id="present"' in info["content"]


def test_html_check_visible_hidden_and_missing_link(browser_on_page: str, ctx: TaskContext) -> None:
    spec = {"type": "html_check", **script(ctx, "url.sh", PAGE_URL)}
    assert get(ctx, {**spec, "css_paths": ["#present", "h1"]}) == "Checking elements succeed"
    assert get(ctx, {**spec, "css_paths": ["#present", "#hidden"], "timeout": 1}) == "Checking elements failed"
    empty = {"type": "html_check", **script(ctx, "nourl.sh", ""), "css_paths": ["h1"]}
    assert get(ctx, empty) == "Link check failed"


def test_validate_correct_url_checks_tokens_against_address_bar(browser_on_page: str, ctx: TaskContext) -> None:
    spec = {"type": "validate_correct_url", "goto_prefix": "file://", **script(ctx, "tokens.sh", "e2e,page.html,nope")}
    assert get(ctx, spec) == "e2e check succeed；page.html check succeed；nope check failed；"


def test_dbt_profiles_first_existing_dir_and_env_var(ctx: TaskContext) -> None:
    ctx.env.execute(["bash", "-c", f"mkdir -p {WORK}/b && printf 'p:\\n  target: dev\\n' > {WORK}/b/profiles.yml"])
    spec = {"type": "dbt_profiles", "dirs": [f"{WORK}/a", "$UNSET_SPIDER2V_VAR", "$HOME/e2e/b"], "dest": "profiles.yml"}
    local = get(ctx, spec)
    assert local == str(ctx.cache_dir / "profiles.yml")
    assert Path(local).read_text() == "p:\n  target: dev\n"
    assert get(ctx, {**spec, "dirs": [f"{WORK}/a"]}) is None
