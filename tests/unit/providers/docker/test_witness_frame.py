"""The frame around every command the witness runs: a lost output is a fault, never an answer.

The engine itself losing an output (moby/moby#27289) cannot be provoked on demand, so the engine's
answers are played here by a stub of the low-level client; the e2e tests (tests/e2e/test_witness.py)
run the frame in a real container.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_spider2v.environments.base import EnvironmentFault
from pytest_spider2v.providers.docker.witness import EngineWitness, unframed


class Engine:
    """Answers every exec with ``answer(mark)`` on stdout and exit code 0, as a running container."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.commands: list[list[str]] = []

    def exec_create(self, container: str, command: list[str], **_: Any) -> dict[str, str]:
        self.commands.append(command)
        return {"Id": "exec"}

    def exec_start(self, exec_id: str, demux: bool) -> tuple[bytes, bytes]:
        return self.answer(self.commands[-1][3].encode()), b""

    def exec_inspect(self, exec_id: str) -> dict[str, int]:
        return {"ExitCode": 0}


class Container:
    id = name = "desktop"


def witness(engine: Engine) -> EngineWitness:
    made = object.__new__(EngineWitness)  # no layers to find: only the commands are under test
    made.container, made.api, made.user, made.ports = Container(), engine, "user", ()  # type: ignore[assignment]
    return made


def test_an_output_inside_its_marks_is_the_commands_output() -> None:
    engine = Engine(lambda mark: mark + b"1000\n" + mark)
    result = witness(engine).run(["id", "-u"], env={}, workdir="/", timeout=5, as_root=True)
    assert result.ok and result.stdout == "1000\n"
    sh, flag, _, mark, *command = engine.commands[0]
    assert (sh, flag) == ("/bin/sh", "-c") and len(mark) == 16 and command[-2:] == ["id", "-u"]


@pytest.mark.parametrize("answer", [lambda mark: b"", lambda mark: mark, lambda mark: b"1000\n" + mark,
                                    lambda mark: mark + b"1000\n", lambda mark: b"0" * 40])
def test_an_output_without_either_mark_is_a_fault_not_an_empty_answer(answer: Any) -> None:
    with pytest.raises(EnvironmentFault, match="the engine lost the output of"):
        witness(Engine(answer)).run(["id", "-u"], env={}, workdir="/", timeout=5, as_root=True)


def test_an_empty_output_between_its_marks_is_empty_and_a_mark_inside_the_output_stays() -> None:
    assert unframed(b"abab", b"ab") == b""
    assert unframed(b"ab-ab-ab", b"ab") == b"-ab-"
    assert unframed(b"aba", b"ab") is None  # the marks may not overlap
