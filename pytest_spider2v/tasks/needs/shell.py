"""Reading shell text for what it needs: the programs it calls, the conda environments it
activates, the packages pip installs and the hosts it reaches.

Scripts (``init.sh``, ``eval.sh``), steps' ``command`` parameters and notebooks' ``!`` lines are
all shell. Each simple command is read behind keywords, assignments and wrappers (``sudo``,
``env``, ...); text that is only printed or matched (``echo``, ``grep``) is not a call, a
``conda create`` makes the environment it names, a ``.py`` file a command writes is a module of
the task's own, and Python handed to ``python -c`` or through a here-document is read as Python.
"""

from __future__ import annotations

import re
from itertools import takewhile
from pathlib import PurePosixPath

from pytest_spider2v.tasks.needs.facts import Facts, Need, hosts
from pytest_spider2v.tasks.needs.packages import REQUIREMENTS_FILE, read_pip_arguments, read_requirements
from pytest_spider2v.tasks.needs.python_code import NOTEBOOK_EXECUTORS, read_python
from pytest_spider2v.tasks.needs.shell_lexer import ASSIGNMENT, REDIRECTIONS, Op, Word, lex

#: Words a shell handles itself: never programs on the PATH.
BUILTINS = frozenset(
    "alias bg bind break builtin caller cd command compgen complete continue declare dirs disown echo enable "
    "eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd "
    "printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true "
    "type typeset ulimit umask unalias unset wait . : [ [[ ]]".split()
)
KEYWORDS = frozenset("if then else elif fi do done while until ! { } time coproc esac".split())
#: Commands that carry another command after their options; values of the options that take one.
WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset("-u -g -p -C -D -h -r -t -U -T --user --group --prompt".split()),
    "env": frozenset("-u -C -S --unset --chdir".split()),
    "nohup": frozenset(),
    "nice": frozenset("-n".split()),
    "ionice": frozenset("-c -n -p".split()),
    "timeout": frozenset("-s -k --signal --kill-after".split()),
    "stdbuf": frozenset("-i -o -e".split()),
    "xargs": frozenset("-I -n -P -d -L -s -a -E -e".split()),
    "exec": frozenset("-a".split()),
    "command": frozenset(),
    "builtin": frozenset(),
    "setsid": frozenset(),
    "time": frozenset("-f -o".split()),
}
#: Commands whose arguments are text to print or match, not addresses to reach.
TEXT_COMMANDS = frozenset("echo printf grep egrep fgrep sed awk test [ [[ jq cut tr".split())
SHELLS = frozenset("bash sh dash zsh".split())
#: Commands that write the files their arguments name: all of them, or the last (the destination).
WRITES_ALL = frozenset("touch tee".split())
WRITES_LAST = frozenset("cp mv install ln".split())
PROGRAM_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")
#: A program's subcommand words (``astro dev start``, ``conda env create``): how many are kept,
#: and what they look like (not an option, a path or a file name).
SUBCOMMAND_WORDS = 2
SUBCOMMAND = re.compile(r"[a-z][a-z0-9_-]*")


def read_shell(text: str, first_line: int, facts: Facts, where: str = "line") -> None:
    """Programs called (after sudo, env, ...), conda environments, pip installs, URL hosts."""
    tokens, nested = lex(text, first_line)
    functions = {w.text for i, w in enumerate(tokens) if isinstance(w, Word) and _defines_function(tokens, i)}
    _commands(tokens, functions, facts, where)
    for inner, line in nested:  # substitutions nested in substitutions are appended as they are found
        inner_tokens, more = lex(inner, line)
        nested += more
        _commands(inner_tokens, functions, facts, where)


def shell_quote(word: str) -> str:
    """A word as a shell line has it: as is when plain, else single-quoted (a command given as a
    list of words is read as the line they make)."""
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\"'\"'") + "'"


def _defines_function(tokens: list[Word | Op], i: int) -> bool:
    word = tokens[i]
    assert isinstance(word, Word)
    before = tokens[i - 1] if i else None
    if isinstance(before, Word) and before.text == "function" and not before.quoted:
        return True
    after = tokens[i + 1:i + 3]
    return [t.op for t in after if isinstance(t, Op)] == ["(", ")"] and len(after) == 2


def _commands(tokens: list[Word | Op], functions: set[str], facts: Facts, where: str) -> None:
    """Split the token stream into simple commands and read each."""
    words: list[Word] = []
    redirects: list[tuple[str, Word]] = []
    case_pattern = False  # inside `case ... in`, until a pattern's closing parenthesis
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, Op):
            if token.op in REDIRECTIONS:
                target = tokens[i + 1] if i + 1 < len(tokens) else None
                if isinstance(target, Word):
                    redirects.append((token.op, target))
                    i += 2
                    continue
            elif case_pattern and token.op == ")":
                case_pattern, words, redirects = False, [], []
            elif token.op in (";;", ";&", ";;&"):
                _command(words, redirects, functions, facts, where)
                words, redirects, case_pattern = [], [], True
            else:
                if not case_pattern:
                    _command(words, redirects, functions, facts, where)
                words, redirects = [], []
            i += 1
            continue
        if not words and not token.quoted and token.text == "case":
            # `case WORD in`: skip to `in`; patterns follow
            while i < len(tokens) and not (isinstance(tokens[i], Word) and tokens[i].text == "in"):  # type: ignore[union-attr]
                i += 1
            case_pattern = True
            i += 1
            continue
        if case_pattern:
            if not token.quoted and token.text == "esac":
                case_pattern = False
            i += 1
            continue
        words.append(token)
        i += 1
    _command(words, redirects, functions, facts, where)


def _command(words: list[Word], redirects: list[tuple[str, Word]], functions: set[str], facts: Facts,
             where: str) -> None:
    """One simple command: its program (behind keywords, assignments and wrappers) and what it reaches."""
    words = list(words)
    while words and not words[0].quoted and words[0].text in KEYWORDS:
        words.pop(0)
    if not words:
        return
    head = words[0].text
    if head in ("for", "select", "function", "[[") or (len(words) == 1 and head in functions):
        if head in ("for", "select"):
            _hosts_in(words, facts, where)
        return
    while words and ASSIGNMENT.match(words[0].text):
        facts.needs += [Need("host", h, f"{where} {words[0].line}") for h in hosts(words[0].text.split("=", 1)[1])]
        words.pop(0)
    words = _unwrap(words)
    if not words:
        return
    program, args = words[0].text, [w.text for w in words[1:]]
    line = f"{where} {words[0].line}"
    if program in SHELLS or program in ("su", "sg"):  # `su USER -c CMD`, `sg GROUP -c CMD`
        if "-c" in args and args.index("-c") + 1 < len(args):
            read_shell(args[args.index("-c") + 1], words[0].line, facts, where)
    if re.fullmatch(r"python(\d+(\.\d+)?)?", program):
        _python_command(args, words[0].line, redirects, facts, where)
    if program in ("pip", "pip3") or re.fullmatch(r"pip\d\.\d+", program):
        read_pip_arguments(args, line, facts)
    if program in ("conda", "mamba", "micromamba") or (program in ("source", ".") and args[:1] == ["activate"]):
        _conda(program, args, words, functions, facts, where)
    _written_modules(program, args, redirects, facts)
    if _executes_notebooks(program, args):
        facts.executes_notebooks = True
    heredoc = next((t for op, t in redirects if op in ("<<", "<<-") and t.heredoc is not None), None)
    if heredoc is not None:
        _heredoc(program, redirects, heredoc, facts, where)
    if program not in TEXT_COMMANDS:
        _hosts_in(words[1:], facts, where)
    if program in BUILTINS or program in functions or program in KEYWORDS or not PROGRAM_NAME.match(program) \
            or program.isdigit():
        return
    sub = " ".join(takewhile(SUBCOMMAND.fullmatch, args[:SUBCOMMAND_WORDS]))
    call = " ".join([program, *args])
    facts.needs.append(Need("program", program, line, sub, call if len(call) <= 120 else call[:117] + "..."))


def _written_modules(program: str, args: list[str], redirects: list[tuple[str, Word]], facts: Facts) -> None:
    """Python modules the command writes (``cat > jobs.py``, ``touch jobs.py``, ``cp x jobs.py``):
    the task's own code, so importing them is no need."""
    written = [t.text for op, t in redirects if op in (">", ">>", ">|")]
    operands = [a for a in args if not a.startswith("-")]
    if program in WRITES_ALL:
        written += operands
    elif program in WRITES_LAST and len(operands) > 1:
        written.append(operands[-1])
    facts.modules.update(PurePosixPath(w).stem for w in written if w.endswith(".py"))


def _executes_notebooks(program: str, args: list[str]) -> bool:
    """``jupyter nbconvert --execute``, ``jupyter execute``, papermill, runipy, ``ipython x.ipynb``."""
    if program in ("papermill", "runipy", "jupyter-execute"):
        return True
    if program == "jupyter-nbconvert" or (program == "jupyter" and args[:1] == ["nbconvert"]):
        return "--execute" in args
    if program == "jupyter":
        return args[:1] == ["execute"]
    return program == "ipython" and any(a.endswith(".ipynb") for a in args)


def _unwrap(words: list[Word]) -> list[Word]:
    """Drop sudo/env/nohup/... and their options (and env's assignments) before the real command."""
    while words and words[0].text in WRAPPERS and not words[0].quoted:
        wrapper, takes_value = words[0].text, WRAPPERS[words[0].text]
        rest = words[1:]
        if wrapper == "command" and rest and rest[0].text in ("-v", "-V"):
            return []  # `command -v prog` asks whether it exists: not a need
        while rest and (rest[0].text.startswith("-") or (wrapper in ("env", "sudo") and ASSIGNMENT.match(rest[0].text))):
            option = rest.pop(0).text
            if option == "--":
                break
            if option in takes_value and rest:
                rest.pop(0)
        if wrapper == "timeout" and rest:
            rest.pop(0)  # the duration
        words = rest
    return words


def _hosts_in(words: list[Word], facts: Facts, where: str) -> None:
    for word in words:
        facts.needs += [Need("host", host, f"{where} {word.line}") for host in hosts(word.text)]


def _python_command(args: list[str], line: int, redirects: list[tuple[str, Word]], facts: Facts,
                    where: str) -> None:
    """``python -c CODE`` and ``python -m MODULE`` (``-m pip install`` as pip)."""
    for i, arg in enumerate(args[:-1]):
        if arg == "-c":
            read_python(args[i + 1], line, facts, where)
            return
        if arg == "-m":
            module = args[i + 1]
            if module == "pip":
                read_pip_arguments(args[i + 2:], f"{where} {line}", facts)
            else:
                if module in NOTEBOOK_EXECUTORS or (module == "nbconvert" and "--execute" in args):
                    facts.executes_notebooks = True
                facts.needs.append(Need("package", "", f"{where} {line}", module))
            return


def _conda(program: str, args: list[str], words: list[Word], functions: set[str], facts: Facts,
           where: str) -> None:
    """``conda activate NAME`` needs the environment, unless the task's own ``conda create`` made it."""
    line = f"{where} {words[0].line}"
    if program in ("source", "."):
        args = args[1:]
        if args:
            facts.needs.append(Need("conda_env", args[0], line))
        return
    if not args:
        return
    if args[0] == "activate" and len(args) > 1 and args[1] != "base" and not args[1].startswith("-"):
        facts.needs.append(Need("conda_env", args[1], line))
    elif args[0] == "create" or args[:2] == ["env", "create"]:
        name = _option_value(args, ("-n", "--name"))
        if name:
            facts.created_envs.add(name)
    elif args[0] == "run":
        name = _option_value(args, ("-n", "--name"))
        if name and name != "base":
            facts.needs.append(Need("conda_env", name, line))
        rest = words[2:]
        while rest and rest[0].text.startswith("-"):
            option = rest.pop(0).text
            if option in ("-n", "--name", "-p", "--prefix", "--cwd") and rest:
                rest.pop(0)
        if rest:
            _command(rest, [], functions, facts, where)


def _option_value(args: list[str], names: tuple[str, ...]) -> str | None:
    for i, arg in enumerate(args):
        if arg in names and i + 1 < len(args):
            return args[i + 1]
        for name in names:
            if name.startswith("--") and arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None


def _heredoc(program: str, redirects: list[tuple[str, Word]], body_word: Word, facts: Facts, where: str) -> None:
    """A here-document read as what it becomes: Python fed to python, or a file written by cat."""
    body = body_word.heredoc or ""
    first = body_word.line + 1
    targets = [t.text for op, t in redirects if op in (">", ">>")]
    name = PurePosixPath(targets[0]).name if targets else ""
    if re.fullmatch(r"python(\d+(\.\d+)?)?", program) or name.endswith(".py"):
        read_python(body, first, facts, where)
    elif REQUIREMENTS_FILE.fullmatch(name):
        read_requirements(body, first, facts, where)
