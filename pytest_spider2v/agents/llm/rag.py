"""Retrieval-augmented context: documentation chunks relevant to a task, for the prompt.

The original retrieved with a dense embedding model downloaded from a model hub (reference §6.7).
Here retrieval is lexical and fully local: a documentation folder (Markdown, text, reStructuredText
or HTML files) is split into overlapping chunks and ranked against the task instruction with
BM25 (``rank-bm25``). Chunks are rendered in the original's section format, so the prompt reads
as the paper's.

A task folder of the original benchmark also ships its precomputed retrieval
(``retrieved_chunk_size_512_..._bge-large-en-v1.5.txt``); :func:`precomputed_context` reads it as
the original did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

DOC_SUFFIXES = (".md", ".markdown", ".txt", ".rst", ".html", ".htm")
SECTION_MARK = "Documentation Source:"
PRECOMPUTED_GLOB = "retrieved_chunk_size_512_chunk_overlap_20_topk_4_embed_*.txt"
WORD = re.compile(r"[a-z0-9_]+")
#: frequent English words carry no signal for ranking and would dominate short queries
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "has", "have", "how", "i", "in", "into", "is", "it", "its", "of", "on", "or", "that", "the", "then", "this", "to", "was", "what", "when", "which", "will", "with", "you", "your"]
)


@dataclass(frozen=True)
class Chunk:
    source: str  #: the file, relative to the documentation folder
    title: str
    text: str


def tokenize(text: str) -> list[str]:
    return [word for word in WORD.findall(text.lower()) if word not in STOPWORDS]


class _TextOfHTML(HTMLParser):
    """Visible text and <title> of an HTML page (scripts and styles dropped)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag in ("p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "pre", "section"):
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data.strip()
        elif not self._skip:
            self.parts.append(data)


def read_document(path: Path) -> tuple[str, str]:
    """(title, plain text) of one documentation file."""
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() in (".html", ".htm"):
        parser = _TextOfHTML()
        parser.feed(raw)
        return parser.title or path.stem, "".join(parser.parts)
    heading = re.search(r"^#+\s+(.+)$", raw, re.MULTILINE) or re.search(r"^(.+)\n[=-]{3,}\s*$", raw, re.MULTILINE)
    return (heading.group(1).strip() if heading else path.stem), raw


def split_chunks(text: str, size: int, overlap: int) -> list[str]:
    """Paragraph-aligned chunks of about ``size`` words, each starting with the last ``overlap``
    words of the one before.

    Words stand in for the original's 512 gpt-3.5 tokens: ranking is lexical, so the exact
    tokenizer does not matter, only that a chunk is about a page section long.
    """
    pieces: list[list[str]] = []
    for paragraph in re.split(r"\n\s*\n", text):
        words = paragraph.split()
        pieces += [words[i:i + size] for i in range(0, len(words), size)]  # long paragraphs are cut
    chunks: list[list[str]] = []
    current: list[str] = []
    for piece in pieces:
        if current and len(current) + len(piece) > size:
            chunks.append(current)
            current = current[-overlap:] if overlap else []
        current = current + piece
    if current:
        chunks.append(current)
    return [" ".join(chunk) for chunk in chunks]


class DocIndex:
    """A BM25 index over the chunks of every documentation file under a folder."""

    def __init__(self, chunks: list[Chunk]) -> None:
        if not chunks:
            raise ValueError("no documentation text to index")
        from rank_bm25 import BM25Okapi  # numpy underneath: paid only by runs that retrieve

        self.chunks = chunks
        tokens = [tokenize(f"{c.title} {c.text}") for c in chunks]
        self._terms = [set(t) for t in tokens]
        self._bm25 = BM25Okapi(tokens)

    @classmethod
    def from_folder(cls, folder: Path, chunk_words: int = 384, overlap: int = 20) -> DocIndex:
        files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in DOC_SUFFIXES)
        if not files:
            raise ValueError(f"no documentation files ({', '.join(DOC_SUFFIXES)}) under {folder}")
        chunks = []
        for path in files:
            title, text = read_document(path)
            source = path.relative_to(folder).as_posix()
            chunks += [Chunk(source, title, piece) for piece in split_chunks(text, chunk_words, overlap)]
        return cls(chunks)

    def search(self, query: str, k: int) -> list[Chunk]:
        """The ``k`` best chunks for ``query``; chunks sharing no term with it are never returned."""
        terms = tokenize(query)
        scores = self._bm25.get_scores(terms)
        hits = [i for i in range(len(self.chunks)) if self._terms[i] & set(terms)]
        hits.sort(key=lambda i: -scores[i])
        return [self.chunks[i] for i in hits[:k]]


@lru_cache(maxsize=8)
def folder_index(folder: Path) -> DocIndex:
    """One index per folder and process: agents are built per task, the docs do not change."""
    return DocIndex.from_folder(folder)


def format_context(chunks: list[Chunk]) -> str:
    """Chunks in the original's section format (reference §6.7)."""
    return "".join(
        f"{SECTION_MARK}\n{c.source}\n\nDocumentation Title:\n{c.title}\n\nDocumentation Content:\n{c.text}\n\n\n\n"
        for c in chunks
    )


def precomputed_context(task_folder: Path, k: int) -> str:
    """The first ``k`` sections of an original task's retrieval file ("" when it is empty).

    A missing file is an error, as in the original: silently running without context would make
    a RAG run look like a plain one.
    """
    found = sorted(task_folder.glob(PRECOMPUTED_GLOB))
    if not found:
        raise FileNotFoundError(f"no {PRECOMPUTED_GLOB} in {task_folder}")
    sections = [s for s in found[0].read_text(encoding="utf-8").split(SECTION_MARK) if s.strip()]
    return "".join(SECTION_MARK + s for s in sections[:k])
