"""The Jinja2 environment the report's HTML is rendered with: the templates in ``templates/``
(package data), autoescaped.

Every value a template shows is escaped once, by the template engine: record text (agent replies,
command output, a task's instruction) can hold anything, and a report gets shared. HTML made
elsewhere (a chart's SVG, a plugin's section) is passed as :class:`markupsafe.Markup`, which the
engine inserts as it is. A value that is not text is shown as JSON, as the record spells it
(``null``, ``true``, a list of expected values).

The templates are written indented, one element a line; the line breaks and the indentation after
them are the template's layout, not the page's (:class:`Compact`): the page is written as compactly
as the f-strings it replaced wrote it, so a ``<pre>`` gains no line and a cell no space.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup

#: a line break of a template's text and the blanks around it
_LAYOUT = re.compile(r"[ \t]*\n\s*")


class Compact(Extension):
    """Drops the line breaks of the templates' own text, with the indentation around them (never
    those of the values they show)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        for token in stream:
            if token.type == "data":
                token = Token(token.lineno, "data", _LAYOUT.sub("", token.value))
            yield token


def as_text(value: object) -> object:
    """What a template shows for ``value``: text (and Markup) as it is, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


@functools.cache
def environment() -> Environment:
    return Environment(loader=PackageLoader("pytest_spider2v.reports", "templates"), autoescape=True,
                       undefined=StrictUndefined, finalize=as_text, extensions=[Compact])


def render(template: str, **context: object) -> str:
    """``template`` (a file of ``templates/``) rendered with ``context``: a plain ``str``, which
    travels where Markup cannot (from an xdist worker to the controller, with the report)."""
    return environment().get_template(template).render(**context)


def macro(template: str, name: str) -> Callable[..., str]:
    """The macro ``name`` of ``template``: a piece of a page another page (pytest-html's) is built
    of, as a plain ``str``."""
    called: Callable[..., Markup] = getattr(environment().get_template(template).module, name)
    return lambda *args: str(called(*args))
