"""Local lexical retrieval of documentation for the prompt (pytest_spider2v.agents.llm.rag)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_spider2v.agents.llm.rag import DocIndex, format_context, precomputed_context, split_chunks


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "dbt").mkdir(parents=True)
    (folder / "dbt" / "models.md").write_text(
        "# dbt models\n\nA model is a SELECT statement in a .sql file under the models folder. "
        "Run dbt run to materialize every model as a view or a table in the warehouse.\n")
    (folder / "calc.html").write_text(
        "<html><head><title>Pivot tables in Calc</title><style>p { color: red }</style></head>"
        "<body><h1>Pivot tables</h1><p>Select the data range, then choose Insert - Pivot Table.</p>"
        "<script>var pivot = 1;</script></body></html>")
    (folder / "sqlite.txt").write_text("SQLite\n======\n\nUse .import to load a CSV file into a table.\n")
    (folder / "image.png").write_bytes(b"\x89PNG not documentation")
    return folder


def test_the_best_chunks_for_the_instruction_come_first(docs: Path) -> None:
    index = DocIndex.from_folder(docs)
    assert {c.source for c in index.chunks} == {"dbt/models.md", "calc.html", "sqlite.txt"}
    hits = index.search("Materialize the customers model with dbt run", k=2)
    assert hits[0].source == "dbt/models.md" and hits[0].title == "dbt models"
    assert [c.source for c in index.search("Create a pivot table of revenue in Calc", k=1)] == ["calc.html"]


def test_chunks_sharing_no_word_with_the_query_are_never_returned(docs: Path) -> None:
    index = DocIndex.from_folder(docs)
    assert [c.source for c in index.search("import a CSV", k=4)] == ["sqlite.txt"]
    assert index.search("kubernetes helm", k=4) == []


def test_html_gives_its_title_and_visible_text_only(docs: Path) -> None:
    chunk = next(c for c in DocIndex.from_folder(docs).chunks if c.source == "calc.html")
    assert chunk.title == "Pivot tables in Calc"
    assert "Insert - Pivot Table" in chunk.text and "color" not in chunk.text and "var pivot" not in chunk.text


def test_chunks_are_bounded_and_overlap() -> None:
    text = "\n\n".join(" ".join(f"p{p}w{w}" for w in range(30)) for p in range(10))  # 10 paragraphs of 30 words
    chunks = [c.split() for c in split_chunks(text, size=100, overlap=5)]
    assert len(chunks) == 4 and all(len(c) <= 105 for c in chunks)
    assert chunks[1][:5] == chunks[0][-5:]
    assert chunks[0][0] == "p0w0" and chunks[-1][-1] == "p9w29"
    long = split_chunks(" ".join(f"w{i}" for i in range(250)), size=100, overlap=0)
    assert [len(c.split()) for c in long] == [100, 100, 50]


def test_context_uses_the_original_section_format(docs: Path) -> None:
    hit = DocIndex.from_folder(docs).search("dbt model", k=1)
    assert format_context(hit).startswith(
        "Documentation Source:\ndbt/models.md\n\nDocumentation Title:\ndbt models\n\nDocumentation Content:\n# dbt")


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no documentation files"):
        DocIndex.from_folder(tmp_path)


def test_an_original_tasks_retrieval_file_gives_its_first_k_sections(tmp_path: Path) -> None:
    sections = [f"Documentation Source:\nsite/{n}\n\nDocumentation Title:\nT{n}\n\nDocumentation Content:\nbody {n}\n\n\n\n"
                for n in range(4)]
    name = "retrieved_chunk_size_512_chunk_overlap_20_topk_4_embed_bge-large-en-v1.5.txt"
    (tmp_path / name).write_text("".join(sections))
    assert precomputed_context(tmp_path, 2) == sections[0] + sections[1]
    (tmp_path / name).write_text("")
    assert precomputed_context(tmp_path, 4) == ""
    with pytest.raises(FileNotFoundError):
        precomputed_context(tmp_path / "elsewhere", 4)
