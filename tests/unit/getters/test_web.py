"""Pure logic of the browser getters: the address bar in an accessibility tree, the scheme
prefix, and validate_correct_url's token report. The tree fixture is a real guest tree
(Debian's Chromium on a file:/// page), trimmed to the path down to the address bar."""

from __future__ import annotations

import pytest

from pytest_spider2v.getters.web import address_bar_text, check_url_tokens, with_prefix
from pytest_spider2v.registry import getters
from tests.support.shared import UNIT_DATA

TREE = (UNIT_DATA / "chromium_a11y.xml").read_text(encoding="utf-8")
SHOWN = "/home/user/e2e/page.html"


def test_address_bar_of_guest_chromium() -> None:
    assert address_bar_text(TREE) == SHOWN


def test_address_bar_under_google_chrome_name() -> None:
    """The application name comes from the guest tree, never from the host's architecture."""
    renamed = TREE.replace('<application name="Chromium"', '<application name="Google Chrome"', 1)
    assert renamed != TREE
    assert address_bar_text(renamed) == SHOWN


def test_no_browser_or_no_text_or_not_xml_is_none() -> None:
    assert address_bar_text(TREE.replace('<application name="Chromium"', '<application name="gedit"', 1)) is None
    assert address_bar_text(TREE.replace(f">{SHOWN}<", "><", 1)) is None
    assert address_bar_text("<desktop-frame><application") is None


@pytest.mark.parametrize(
    ("text", "prefix", "url"),
    [
        (SHOWN, "file://", "file:///home/user/e2e/page.html"),
        ("localhost:8080/dags/x", "http://", "http://localhost:8080/dags/x"),
        ("www.example.com/a", "https://", "https://www.example.com/a"),
        ("chrome://settings", "https://", "chrome://settings"),
    ],
)
def test_goto_prefix(text: str, prefix: str, url: str) -> None:
    assert with_prefix(text, prefix) == url


def test_url_tokens_encode_colon_and_plus() -> None:
    url = "http://localhost:8080/dags/etl/grid?dag_run_id=manual__2024-06-01T00%3A00%3A00%2B00%3A00"
    report = check_url_tokens("etl, manual__2024-06-01T00:00:00+00:00,other_dag\n", url)
    assert report == (
        "etl check succeed；"
        " manual__2024-06-01T00:00:00+00:00 check succeed；"
        "other_dag\n check failed；"
    )


def test_url_tokens_unencoded_url_fails_encoded_token() -> None:
    assert check_url_tokens("a:b", "http://x/a:b") == "a:b check failed；"


def test_local_getters_are_implemented_and_cloud_ones_name_their_account() -> None:
    for name in ("active_url_from_accessTree", "active_tab_info", "html_check", "validate_correct_url",
                 "dbt_profiles", "airbyte_localhost_page", "superset_localhost_page", "metabase_question_sql"):
        assert getters.entry(name).obj is not None, name
    entry = getters.entry("workarena_task_result")
    assert entry.obj is not None and entry.meta.get("account") == "servicenow"
