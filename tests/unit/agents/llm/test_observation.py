"""a11y pruning (reference §6.2) and linearisation (§6.3) on a hand-written guest tree (§4.2)."""

from __future__ import annotations

import pytest

from pytest_spider2v.agents.llm.observation import HEADER, Node, count_tokens, linearize, prune, truncate

#: Shaped like the guest's ``/accessibility`` output for a LibreOffice Calc window on GNOME:
#: lxml-serialised, the AT-SPI namespaces declared on the root, states as ``st:*="true"``.
TREE = """<desktop-frame xmlns:st="uri:deskat:state.at-spi.gnome.org" \
xmlns:attr="uri:deskat:attributes.at-spi.gnome.org" xmlns:cp="uri:deskat:component.at-spi.gnome.org" \
xmlns:doc="uri:deskat:document.at-spi.gnome.org" xmlns:docattr="uri:deskat:attributes.document.at-spi.gnome.org" \
xmlns:txt="uri:deskat:text.at-spi.gnome.org" xmlns:val="uri:deskat:value.at-spi.gnome.org" \
xmlns:act="uri:deskat:action.at-spi.gnome.org" name="main" cp:screencoord="(0, 0)" cp:size="(1920, 1080)">
  <application name="soffice" attr:toolkit="VCL" attr:id="soffice">
    <frame name="Untitled 1 - LibreOffice Calc" st:enabled="true" st:showing="true" st:visible="true" \
st:active="true" cp:screencoord="(70, 27)" cp:size="(1850, 1053)">
      <menu-bar st:enabled="true" st:showing="true" st:visible="true" cp:screencoord="(70, 60)" cp:size="(1850, 24)">
        <menu name="File" st:enabled="true" st:showing="true" st:visible="true" st:selectable="true" \
cp:screencoord="(70, 60)" cp:size="(38, 24)" act:click_desc="Click"/>
        <menu name="Edit" st:enabled="true" st:showing="true" st:visible="true" cp:screencoord="(108, 60)" \
cp:size="(38, 24)"/>
        <menu-item name="Recent Documents" st:enabled="true" st:visible="true" cp:screencoord="(70, 84)" \
cp:size="(200, 24)"/>
      </menu-bar>
      <tool-bar name="Standard" st:enabled="true" st:showing="true" st:visible="true" \
cp:screencoord="(70, 84)" cp:size="(1850, 32)">
        <push-button name="Save" st:enabled="true" st:showing="true" st:visible="true" st:focusable="true" \
cp:screencoord="(150, 86)" cp:size="(28, 28)" act:press_desc="Press"/>
        <push-button name="Undo" st:showing="true" st:visible="true" cp:screencoord="(180, 86)" cp:size="(28, 28)"/>
        <toggle-button name="Bold" st:enabled="true" st:showing="true" st:visible="true" st:checkable="true" \
cp:screencoord="(400, 86)" cp:size="(28, 28)"/>
        <push-button name="" st:enabled="true" st:showing="true" st:visible="true" cp:screencoord="(430, 86)" \
cp:size="(28, 28)"/>
        <push-button name="Offscreen" st:enabled="true" st:showing="true" st:visible="true" \
cp:screencoord="(-40, 86)" cp:size="(28, 28)"/>
        <push-button name="Collapsed" st:enabled="true" st:showing="true" st:visible="true" \
cp:screencoord="(460, 86)" cp:size="(0, 28)"/>
        <push-button name="NoGeometry" st:enabled="true" st:showing="true" st:visible="true"/>
      </tool-bar>
      <combo-box name="Name Box" st:enabled="true" st:showing="true" st:visible="true" st:editable="true" \
cp:screencoord="(75, 120)" cp:size="(120, 24)">A1</combo-box>
      <panel name="Formula Bar" st:enabled="true" st:showing="true" st:visible="true" \
cp:screencoord="(200, 120)" cp:size="(1700, 24)">
        <paragraph st:enabled="true" st:showing="true" st:visible="true" st:editable="true" \
cp:screencoord="(260, 120)" cp:size="(1600, 24)">=SUM(A1:A3)\t</paragraph>
      </panel>
      <document-spreadsheet name="Untitled 1 - LibreOffice Spreadsheets" st:enabled="true" st:showing="true" \
st:visible="true" cp:screencoord="(70, 150)" cp:size="(1850, 900)" doc:pagecount="1">
        <table name="Sheet Sheet1" st:enabled="true" st:showing="true" st:visible="true" \
cp:screencoord="(70, 150)" cp:size="(1850, 900)">
          <table-cell name="A1" st:enabled="true" st:showing="true" st:visible="true" st:selectable="true" \
cp:screencoord="(120, 170)" cp:size="(80, 20)" val:value="3.0">3</table-cell>
          <table-cell name="B1" st:enabled="true" st:showing="true" st:visible="true" \
cp:screencoord="(200, 170)" cp:size="(80, 20)">It's "quoted"</table-cell>
        </table>
      </document-spreadsheet>
      <image st:enabled="true" st:showing="true" st:visible="true" image="true" \
cp:screencoord="(1800, 30)" cp:size="(16, 16)"/>
      <label st:enabled="true" st:showing="true" st:visible="true" cp:screencoord="(1700, 1050)" \
cp:size="(100, 20)">   </label>
    </frame>
  </application>
</desktop-frame>"""


def names(nodes: list[Node]) -> list[str]:
    return [node.name or node.text.strip() or node.tag for node in nodes]


def test_prune_keeps_only_visible_interactive_labelled_widgets_in_document_order() -> None:
    nodes = prune(TREE)
    assert names(nodes) == [
        "File", "Edit", "Save", "Bold", "Name Box", "=SUM(A1:A3)",
        "Untitled 1 - LibreOffice Spreadsheets", "A1", "B1", "image", "label",
    ]
    save = nodes[2]
    assert save == Node("push-button", "Save", "", 150, 86, 28, 28)
    assert nodes[4].text == "A1"


@pytest.mark.parametrize(
    "dropped",
    [
        "Recent Documents",  # not showing
        "Undo",  # not enabled/editable/expandable/checkable
        "Standard",  # tool-bar tag is not a widget tag
        "Formula Bar",  # panel tag
        "Sheet Sheet1",  # table tag (only its cells are kept)
        "Offscreen",  # negative position
        "Collapsed",  # zero width
        "NoGeometry",  # no cp:* attributes
        "Untitled 1 - LibreOffice Calc",  # frame
    ],
)
def test_prune_drops(dropped: str) -> None:
    assert dropped not in names(prune(TREE))


def test_prune_windows_needs_only_visible() -> None:
    assert "Recent Documents" in names(prune(TREE, platform="windows"))


def test_prune_edge_and_failure_inputs() -> None:
    assert prune("") == []
    with pytest.raises(ValueError, match="not well-formed XML"):
        prune("<desktop-frame><push-button></desktop-frame>")
    with pytest.raises(ValueError, match="platform must be one of"):
        prune(TREE, platform="macos")


def test_linearize_prints_the_original_table() -> None:
    table = linearize(prune(TREE), max_tokens=None)
    lines = table.split("\n")
    assert lines[0] == "TAG\tNAME\tPOSITION (top-left x & y)\tSIZE (width & height)\tTEXT"
    assert lines[3] == "push-button\tSave\t(150, 86)\t(28, 28)\t''"
    assert lines[6] == "paragraph\t\t(260, 120)\t(1600, 24)\t'=SUM(A1:A3)'"
    assert lines[9] == "table-cell\tB1\t(200, 170)\t(80, 20)\t'It\\'s \"quoted\"'"
    assert lines[11] == "label\t\t(1700, 1050)\t(100, 20)\t''"
    assert len(lines) == 12


def test_linearize_with_index_numbers_rows_from_one() -> None:
    lines = linearize(prune(TREE), with_index=True).split("\n")
    assert lines[0] == "INDEX\t" + HEADER
    assert lines[1].startswith("1\tmenu\tFile\t")
    assert lines[-1].startswith("11\tlabel\t")


def test_linearize_truncates_at_token_budget() -> None:
    nodes = [Node("push-button", f"Button number {i}", "", i, i, 10, 10) for i in range(400)]
    full = linearize(nodes, max_tokens=None)
    cut = linearize(nodes, max_tokens=100)
    assert count_tokens(full) > 100
    assert cut.endswith("[...]\n")
    assert full.startswith(cut[: -len("[...]\n")])
    assert count_tokens(cut[: -len("[...]\n")]) == 100
    assert linearize([], max_tokens=5000) == HEADER


def test_token_counts_are_gpt4_cl100k() -> None:
    # Reference ids from tiktoken's cl100k_base: "hello world" -> [15339, 1917].
    assert count_tokens("hello world") == 2
    assert count_tokens("<|endoftext|>") > 1  # special-token text counts as plain text
    assert truncate("short", 10) == "short"
