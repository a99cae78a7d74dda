"""The superset image's Superset configuration (environments/superset/superset_config.py): the
file-upload settings, read on the host with Flask and werkzeug played by small fakes."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType, SimpleNamespace

import pytest

from pytest_spider2v.environments.locations import RECIPES_DIR

CONFIG = RECIPES_DIR / "superset" / "superset_config.py"


@pytest.fixture
def config() -> ModuleType:
    spec = importlib.util.spec_from_file_location("superset_config_under_test", CONFIG)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeForm:
    """The parts of werkzeug's MultiDict the hook uses."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = list(pairs)

    def __contains__(self, key: str) -> bool:
        return any(k == key for k, _ in self.pairs)

    def items(self, multi: bool = False) -> list[tuple[str, str]]:
        assert multi, "a form can repeat a key: the hook must keep every value"
        return list(self.pairs)


@pytest.fixture
def hook(config: ModuleType, monkeypatch: pytest.MonkeyPatch):
    """The before-request hook FLASK_APP_MUTATOR installs, and the fake request it reads."""
    request = SimpleNamespace(method="POST", path="/api/v1/database/2/csv_upload/")
    monkeypatch.setitem(sys.modules, "flask", SimpleNamespace(request=request))
    monkeypatch.setitem(sys.modules, "werkzeug", ModuleType("werkzeug"))
    monkeypatch.setitem(sys.modules, "werkzeug.datastructures", SimpleNamespace(ImmutableMultiDict=FakeForm))
    installed = []
    config.FLASK_APP_MUTATOR(SimpleNamespace(before_request=lambda fn: installed.append(fn) or fn))
    assert len(installed) == 1
    return installed[0], request


def test_sales_takes_uploads_into_main_or_no_schema_others_any(config: ModuleType):
    schemas = config.ALLOWED_USER_CSV_SCHEMA_FUNC
    assert schemas(SimpleNamespace(backend="sqlite"), None) == [None, "main"]
    # an empty list is Superset's "whatever the user may access" (public, or none, on PostgreSQL)
    assert schemas(SimpleNamespace(backend="postgresql"), None) == []


@pytest.mark.parametrize("unchosen", ["undefined", "null", "", "  "])
def test_a_schema_that_names_none_is_dropped(config: ModuleType, unchosen: str):
    fields = [("table_name", "games"), ("schema", unchosen), ("delimiter", ",")]
    assert config.without_unchosen_schema(fields) == [("table_name", "games"), ("delimiter", ",")]


def test_a_chosen_schema_and_other_fields_are_kept(config: ModuleType):
    fields = [("schema", "public"), ("table_name", "undefined"), ("columns_read", "a"), ("columns_read", "b")]
    assert config.without_unchosen_schema(fields) == fields


def test_the_hook_rewrites_an_upload_form_without_its_unchosen_schema(hook):
    drop, request = hook
    request.form = FakeForm([("table_name", "games"), ("schema", "undefined")])
    drop()
    assert request.form.pairs == [("table_name", "games")]


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/api/v1/database/2/"),           # not an upload
    ("GET", "/api/v1/database/2/csv_upload/"),  # not a form post
])
def test_the_hook_leaves_other_requests_alone(hook, method: str, path: str):
    drop, request = hook
    request.method, request.path = method, path
    form = FakeForm([("schema", "undefined")])
    request.form = form
    drop()
    assert request.form is form and form.pairs == [("schema", "undefined")]
