"""Shell text as words and operators, for :mod:`.shell` to read commands from.

A shell script's needs are in its commands, and finding commands takes the shell's own rules:
quotes, escapes, comments, here-documents, command substitutions (returned apart, to be read as
commands of their own), arithmetic and array literals. Nothing is expanded or run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A variable assignment's start (``NAME=``, ``NAME+=``, ``NAME[i]=``).
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
#: Control and redirection operators, longest first: the first that matches is taken.
OPERATORS = ("&>>", ";;&", "<<<", "<<-", "&&", "||", ";;", ";&", "|&", ">>", "<<", ">&", "<&", "&>", ">|", "<>",
             ";", "&", "|", "(", ")", "<", ">")
#: The operators whose next word is a redirection's target (or a here-document's delimiter).
REDIRECTIONS = frozenset({"&>>", "<<<", "<<-", ">>", "<<", ">&", "<&", "&>", ">|", "<>", "<", ">"})


@dataclass
class Word:
    """A word with its quotes and escapes removed; a command substitution in it is ``$(...)``."""

    text: str
    line: int
    quoted: bool = False
    heredoc: str | None = None  #: the body, for the delimiter word of a here-document


@dataclass(frozen=True)
class Op:
    """An operator (``;``, ``&&``, ``|``, ``>``, ``<<``, ...), or ``\n`` between lines."""

    op: str
    line: int


def lex(text: str, line: int) -> tuple[list[Word | Op], list[tuple[str, int]]]:
    """Words and operators of a shell text; command substitutions come back apart, as
    (text, line) pairs, so that the command around them is read whole."""
    tokens: list[Word | Op] = []
    nested: list[tuple[str, int]] = []
    heredocs: list[tuple[Word, bool]] = []
    word: list[str] = []
    quoted = False
    start = line
    i, n = 0, len(text)

    def end_word() -> None:
        nonlocal word, quoted
        if word or quoted:
            tokens.append(Word("".join(word), start, quoted))
            before = tokens[-2] if len(tokens) > 1 else None
            if isinstance(before, Op) and before.op in ("<<", "<<-"):
                heredocs.append((tokens[-1], before.op == "<<-"))  # type: ignore[arg-type]
        word, quoted = [], False

    def substitution(j: int, closer: str) -> int:
        """Take the command substitution starting at ``j`` (just inside it); return the index after."""
        nonlocal line
        inner_line, depth, k = line, 1, j
        while k < n:
            c = text[k]
            if c == "\\":
                line += text.startswith("\n", k + 1)
                k += 2
                continue
            if c == "\n":
                line += 1
            if closer == "`":
                if c == "`":
                    break
            elif c in "'\"":
                end = text.find(c, k + 1)
                line += text.count("\n", k, end if end >= 0 else n)
                k = end if end >= 0 else n
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        nested.append((text[j:k], inner_line))
        word.append("$(...)")
        return k + 1

    while i < n:
        c = text[i]
        if not word and not quoted:
            start = line
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                line += 1
            else:
                word.append(text[i + 1])
            i += 2
        elif c == "\n":
            end_word()
            tokens.append(Op("\n", line))
            line += 1
            i += 1
            for delimiter, strip_tabs in heredocs:
                body: list[str] = []
                while i < n:
                    end = text.find("\n", i)
                    end = n if end < 0 else end
                    current = text[i:end]
                    i = end + 1
                    line += 1
                    if (current.lstrip("\t") if strip_tabs else current) == delimiter.text:
                        break
                    body.append(current)
                delimiter.heredoc = "\n".join(body)
            heredocs.clear()
        elif c in " \t\r":
            end_word()
            i += 1
        elif c == "#" and not word and not quoted:
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            word.append(text[i + 1:end])
            line += text.count("\n", i, end)
            quoted = True
            i = end + 1
        elif c == '"':
            quoted = True
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\\" and i + 1 < n:
                    word.append(text[i + 1] if text[i + 1] in '"\\$`' else text[i:i + 2])
                    i += 2
                elif text.startswith("$(", i) and not text.startswith("$((", i):
                    i = substitution(i + 2, ")")
                elif text[i] == "`":
                    i = substitution(i + 1, "`")
                else:
                    if text[i] == "\n":
                        line += 1
                    word.append(text[i])
                    i += 1
            i += 1
        elif text.startswith("$(", i) and not text.startswith("$((", i):
            i = substitution(i + 2, ")")
        elif c == "`":
            i = substitution(i + 1, "`")
        elif c == "$" and i + 1 < n and text[i + 1] in "({":
            k = _closing(text, i + 1)  # ${parameter} or $((arithmetic))
            word.append(text[i:k + 1])
            i = k + 1
        elif c == "(" and (ASSIGNMENT.fullmatch("".join(word)) or (not word and text.startswith("((", i))):
            k = _closing(text, i)  # an array literal `x=(a b)`, or arithmetic `(( i++ ))`
            word.append(text[i:k + 1])
            line += text.count("\n", i, k)
            i = k + 1
        elif c in ";&|()<>":
            if c in "<>" and word and "".join(word).isdigit() and not quoted:
                word, quoted = [], False  # a file descriptor number: part of the redirection
            end_word()
            op = next(o for o in OPERATORS if text.startswith(o, i))
            tokens.append(Op(op, line))
            i += len(op)
        else:
            word.append(c)
            i += 1
    end_word()
    return tokens, nested


def _closing(text: str, i: int) -> int:
    """Index of the bracket that closes the one at ``i`` (quotes respected), or the last index."""
    opener = text[i]
    closer = {"(": ")", "{": "}"}[opener]
    depth, k = 0, i
    while k < len(text):
        c = text[k]
        if c in "'\"":
            end = text.find(c, k + 1)
            k = len(text) - 1 if end < 0 else end
        elif c == "\\":
            k += 1
        elif c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return len(text) - 1
