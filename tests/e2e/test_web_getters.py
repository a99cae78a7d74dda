"""Browser and dbt getters against a real desktop container (image spider2v/desktop:latest).

Nothing is mocked: Chromium is started in the guest by the ``google_chrome_browser`` step on a
``file:///`` page, the address bar is read from the guest's accessibility tree, and pages are
opened through the forwarded DevTools port, exactly as during a task's evaluation.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest

import fixtures.chrome  # noqa: F401  (registers google_chrome_browser)
import metrics.web_getters  # noqa: F401  (registers the getters)
import pytest_spider2v.providers.docker  # noqa: F401  (registers the docker provider)
from pytest_spider2v.context import TaskContext
from pytest_spider2v.environment import Environment
from pytest_spider2v.providers import owner_token
from pytest_spider2v.registries import getters, providers, setup_steps
from pytest_spider2v.task import Task, TaskSpec

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


@pytest.fixture(scope="module")
def env() -> Iterator[Environment]:
    try:
        docker.from_env().images.get(IMAGE)
    except docker.errors.DockerException:
        pytest.skip(f"{IMAGE} is not built (python -m pytest_spider2v.build desktop)")
    provider = providers.get("docker")(owner=owner_token(), worker=os.environ.get("PYTEST_XDIST_WORKER", "main"))
    environment = provider.acquire("desktop")
    try:
        environment.wait_ready()
        environment.execute(["mkdir", "-p", WORK])
        environment.upload(HTML.encode(), PAGE)
        yield environment
    finally:
        provider.release(environment)
        provider.close()


@pytest.fixture
def ctx(env: Environment, tmp_path: Path) -> TaskContext:
    root = tmp_path / "task"
    root.mkdir()
    spec = TaskSpec.model_validate({
        "id": "e2e-web-getters", "snapshot": "desktop", "instruction": "end-to-end check",
        "related_apps": ["chromium"], "tags": ["gui"], "action_number": 1,
        "evaluator": {"func": "exact_match", "result": {"type": "rule", "rules": {}}},
    })
    task = Task(spec, root / "task.json", root, "project", "abstract", spec.instruction, "e2e")
    return TaskContext(env=env, task=task, cache_dir=tmp_path / "cache")


@pytest.fixture(scope="module")
def browser_on_page(env: Environment, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Chromium started by the task step on the local page; its address bar, once showing."""
    root = tmp_path_factory.mktemp("browser")
    spec = TaskSpec.model_validate({
        "id": "e2e-browser", "snapshot": "desktop", "instruction": "-", "related_apps": ["chromium"],
        "tags": ["gui"], "action_number": 1,
        "evaluator": {"func": "exact_match", "result": {"type": "rule", "rules": {}}},
    })
    ctx = TaskContext(env=env, task=Task(spec, root / "task.json", root, "project", "abstract", "-", "e2e"),
                      cache_dir=root / "cache")
    setup_steps.get("google_chrome_browser")(ctx, debugging_port=1337, listening_port=9222, urls=[PAGE_URL])
    deadline = time.monotonic() + ADDRESS_BAR_TIMEOUT
    url = None
    while url is None and time.monotonic() < deadline:
        url = get(ctx, {"type": "active_url_from_accessTree", "goto_prefix": "file://"})
        time.sleep(0.5)
    assert url is not None, "the guest accessibility tree never showed Chromium's address bar"
    return url


def get(ctx: TaskContext, spec: dict[str, object]) -> object:
    return getters.get(str(spec["type"]))(ctx, spec)


def script(ctx: TaskContext, name: str, stdout: str) -> dict[str, str]:
    """A task evaluation script (host file) that prints ``stdout``; the getter spec keys for it."""
    (ctx.task.root / name).write_text(f"#!/bin/bash\nprintf '%s' '{stdout}'\n")
    return {"src": name, "dest": f"{WORK}/{name}"}


def test_active_url_from_access_tree_reads_guest_address_bar(browser_on_page: str, ctx: TaskContext) -> None:
    assert browser_on_page == PAGE_URL
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
