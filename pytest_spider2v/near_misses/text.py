"""Near misses of strings, small values and text files: one token, value or line changed, one
line dropped, one forbidden text added, one key dropped."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import yaml

from pytest_spider2v.near_misses.files import result_file
from pytest_spider2v.near_misses.values import changed, changed_text, middle, rules_of
from pytest_spider2v.registry import NearMiss, near_misses

_ANSWER_PAIR = re.compile(r"@(\w+)\[(.*?)\]")


@near_misses.register("check_include_exclude")
def include_exclude(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """Each included text changed where it appears; each excluded text added; a URL's path
    segments and query values changed one at a time (what a URL check claims to pin down)."""
    rules = rules_of(expected, options) or {}
    includes, excludes = list(rules.get("include", [])), list(rules.get("exclude", []))
    if isinstance(result, str):
        for text in includes:
            if text and text in result:
                yield NearMiss("token changed", f"include {text!r}", result.replace(text, changed_text(text)))
        for text in excludes:
            yield NearMiss("forbidden text added", f"exclude {text!r}", f"{result}\n{text}")
        if _is_url(result):
            yield from _url_variants(result)
    elif isinstance(result, (list, tuple)):
        for text in includes:
            if text in result:
                yield NearMiss("member changed", f"include {text!r}",
                               [changed(item) if item == text else item for item in result])
        for text in excludes:
            yield NearMiss("forbidden member added", f"exclude {text!r}", [*result, text])
    elif isinstance(result, dict):
        for text in includes:
            if text in result:
                yield NearMiss("key changed", f"include {text!r}",
                               {(changed_text(k) if k == text else k): v for k, v in result.items()})
        for text in excludes:
            yield NearMiss("forbidden key added", f"exclude {text!r}", {**result, text: None})
    elif result is not None:
        yield NearMiss("value changed", "the result", changed(result))


def _is_url(text: str) -> bool:
    return bool(re.fullmatch(r"https?://\S+", text.strip()))


def _url_variants(url: str) -> Iterator[NearMiss]:
    parts = urlsplit(url.strip())
    segments = parts.path.split("/")
    for i, segment in enumerate(segments):
        if segment:
            path = "/".join([*segments[:i], changed_text(segment), *segments[i + 1:]])
            yield NearMiss("URL token changed", f"path segment {segment!r}", urlunsplit(parts._replace(path=path)))
    query = parse_qsl(parts.query, keep_blank_values=True)
    for i, (key, value) in enumerate(query):
        wrong = [*query[:i], (key, changed_text(value)), *query[i + 1:]]
        yield NearMiss("URL token changed", f"query {key}={value!r}", urlunsplit(parts._replace(query=urlencode(wrong))))


@near_misses.register("exact_match")
def exact(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    yield NearMiss("value changed", "the result", changed(result))


@near_misses.register("literal_match")
def literal(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    if options.get("type", "str") == "list" and isinstance(result, (list, tuple)):
        for i, item in enumerate(result):
            yield NearMiss("item changed", f"item {i}", [*result[:i], changed(item), *result[i + 1:]])
        if result:
            yield NearMiss("item dropped", "the last item", list(result[:-1]))
        return
    yield NearMiss("value changed", "the result", changed(result))


@near_misses.register("is_not_in_list")
def not_in_list(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    excluded = (rules_of(expected, options) or {}).get("exclude")
    if isinstance(result, list):
        for item in excluded if isinstance(excluded, list) else [excluded]:
            yield NearMiss("forbidden item added", f"{item!r}", [*result, item])


@near_misses.register("closed_form")
def closed_form_answer(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """Each sub-answer ``@name[value]`` changed in turn, and each dropped."""
    if not isinstance(result, str):
        return
    for match in _ANSWER_PAIR.finditer(result):
        name, value = match.groups()
        yield NearMiss("sub-answer changed", f"@{name}",
                       result[: match.start(2)] + changed_text(value) + result[match.end(2):])
        yield NearMiss("sub-answer dropped", f"@{name}", result[: match.start()] + result[match.end():])


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def line_variants(result: Any, workdir: Path) -> Iterator[NearMiss]:
    """A text file with its middle non-blank line changed, and with it dropped; and with its last
    non-blank line changed (files often end in what the task asked to add)."""
    if (read := result_file(result, workdir, _lines)) is None:
        return
    lines = read.content
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if not filled:
        return
    chosen = dict.fromkeys([filled[middle(len(filled))], filled[-1]])
    for i in chosen:
        yield read.variant("line changed", f"line {i + 1}", "".join([*lines[:i], changed_text(lines[i]), *lines[i + 1:]]))
    i = filled[middle(len(filled))]
    yield read.variant("line dropped", f"line {i + 1}", "".join([*lines[:i], *lines[i + 1:]]))


@near_misses.register("compare_text_file")
def text_file(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    yield from line_variants(result, workdir)


@near_misses.register("diff_text_file")
def diffed_text_file(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    yield from line_variants(result, workdir)


@near_misses.register("compare_sql")
def sql_file(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """A query with its last literal or name changed (the comparison normalises layout, not words)."""
    if (read := result_file(result, workdir, str)) is None:
        return
    yield read.variant("token changed", "the last literal or name", changed_text(read.content))


@dataclass(frozen=True)
class _Document:
    """A parsed document, boxed: ``null`` and an empty YAML file parse to None, which
    :func:`result_file` would take for "not this kind of file"."""

    value: Any


def _parsed(load: Callable[[str], Any]) -> Callable[[str], _Document]:
    """``load`` as a parser :func:`result_file` accepts: a syntax error (YAML's is no ValueError)
    rejects the file."""
    def parse(text: str) -> _Document:
        try:
            return _Document(load(text))
        except yaml.YAMLError as error:
            raise ValueError(str(error)) from error
    return parse


@near_misses.register("compare_json_file")
def json_file(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """A JSON document with one leaf value changed, and with one member dropped."""
    if (read := result_file(result, workdir, _parsed(json.loads))) is None:
        return
    for kind, where, wrong in _json_variants(read.content.value, "$"):
        yield read.variant(kind, where, json.dumps(wrong, indent=2))


def _json_variants(value: Any, where: str) -> Iterator[tuple[str, str, Any]]:
    """The value changed at its last leaf, and its last member dropped (a container's)."""
    if isinstance(value, dict) and value:
        key = list(value)[-1]
        for kind, inner, wrong in _json_variants(value[key], f"{where}.{key}"):
            yield kind, inner, {**value, key: wrong}
        if not isinstance(value[key], (dict, list)) or not value[key]:
            yield "member dropped", f"{where}.{key}", {k: v for k, v in value.items() if k != key}
    elif isinstance(value, list) and value:
        for kind, inner, wrong in _json_variants(value[-1], f"{where}[{len(value) - 1}]"):
            yield kind, inner, [*value[:-1], wrong]
        if not isinstance(value[-1], (dict, list)) or not value[-1]:
            yield "item dropped", f"{where}[{len(value) - 1}]", value[:-1]
    elif not isinstance(value, (dict, list)):
        yield "value changed", where, changed(value)


@near_misses.register("check_yaml_file")
def yaml_file(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """The value at each rule's key path changed (a ``not_null`` rule's emptied)."""
    if (read := result_file(result, workdir, _parsed(yaml.safe_load))) is None:
        return
    document = read.content.value
    for match_type, key_path, _ in rules_of(expected, options) or []:
        change = (lambda value: None) if match_type == "not_null" else changed
        wrong = _replaced(document, list(key_path), change)
        if wrong is not _MISSING:
            yield read.variant("value changed", "/".join(map(str, key_path)), yaml.safe_dump(wrong, sort_keys=False))


_MISSING = object()


def _replaced(document: Any, key_path: list[Any], change: Callable[[Any], Any]) -> Any:
    """A copy of ``document`` with ``change`` applied at ``key_path`` (:data:`_MISSING` when the
    path leads nowhere)."""
    if not key_path:
        return change(document)
    key, rest = key_path[0], key_path[1:]
    if isinstance(document, dict) and key in document:
        inner = _replaced(document[key], rest, change)
        return _MISSING if inner is _MISSING else {**document, key: inner}
    if isinstance(document, list) and (index := _index(document, key)) is not None:
        inner = _replaced(document[index], rest, change)
        return _MISSING if inner is _MISSING else [*document[:index], inner, *document[index + 1:]]
    return _MISSING


def _index(items: list[Any], key: Any) -> int | None:
    if isinstance(key, (list, tuple)) and len(key) == 2:
        return next((i for i, item in enumerate(items) if isinstance(item, dict) and item.get(key[0]) == key[1]), None)
    try:
        index = int(key)
    except (TypeError, ValueError):
        return None
    return index if -len(items) <= index < len(items) else None
