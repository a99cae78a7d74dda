"""First-class command-line flags of the model-driven agents (a pytest plugin).

Each flag is a shorthand for ``--agent-option KEY=VALUE``: :func:`pytest_spider2v_agent_options` returns the flags
given on the command line under the option keys that :class:`agents.llm.LLMSettings` reads, so the
core passes them on in ``AgentSettings.options`` without knowing any of them. Flags left unset are
absent, and the agent's defaults (the paper's) apply.
"""

from __future__ import annotations

import pytest

#: (flag, option key, type, help) -- the key is also the argparse ``dest`` suffix
FLAGS: tuple[tuple[str, str, type, str], ...] = (
    ("--llm-base-url", "base_url", str,
     "base URL of an OpenAI- or Anthropic-compatible server; no API key is needed then"),
    ("--observation", "observation", str,
     ("what the model sees: screenshot, a11y_tree, screenshot_a11y_tree or som "
      "(default: som; screenshot_a11y_tree for computer_13)")),
    ("--action-space", "action_space", str, "pyautogui (code) or computer_13 (JSON actions); default pyautogui"),
    ("--temperature", "temperature", float, "sampling temperature (default: 0.5; Anthropic models get temperature and top-p only when given)"),
    ("--top-p", "top_p", float, "nucleus sampling (default: 0.9)"),
    ("--max-tokens", "max_tokens", int, "longest reply in tokens (default: 1500)"),
    ("--history", "history", int, "past turns shown to the model (default: 3)"),
    ("--a11y-max-tokens", "a11y_max_tokens", int, "the accessibility table is cut at this many tokens (default: 5000)"),
    ("--rag-docs", "rag_docs", str,
     "documentation folder to retrieve from (BM25), or 'task' for an original task's retrieval file"),
    ("--rag-topk", "rag_topk", int, "documentation chunks added to the prompt (default: 4)"),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("spider2v llm agents", "Spider2-V model-driven agents (--agent gpt-4o, claude-...)")
    for flag, key, kind, text in FLAGS:
        metavar = "URL" if key == "base_url" else ("DIR" if key == "rag_docs" else key.split("_")[-1].upper())
        group.addoption(flag, dest=f"spider2v_llm_{key}", type=kind, default=None, metavar=metavar, help=text)
    group.addoption("--execution-feedback", dest="spider2v_llm_execution_feedback", action="store_true",
                    default=None, help="show the model the errors of its failed actions")


def pytest_spider2v_agent_options(config: pytest.Config) -> dict[str, str]:
    """The flags given, as agent options (strings, like ``--agent-option`` values)."""
    keys = [key for _flag, key, _kind, _text in FLAGS] + ["execution_feedback"]
    given = {key: config.getoption(f"spider2v_llm_{key}", None) for key in keys}
    return {key: str(value).lower() if isinstance(value, bool) else str(value)
            for key, value in given.items() if value is not None}


def pytest_spider2v_manifest(config: pytest.Config) -> dict[str, object]:
    """A model-driven ``--agent``'s parameters as the agent will use them, the paper's defaults
    filled in (a run that gives none still says its temperature): the run's manifest compares them."""
    from pytest_spider2v.agents.llm.agent import ANTHROPIC, OPENAI, LLMSettings, is_anthropic_model, is_openai_model
    from pytest_spider2v.plugin.keys import RUN_CONFIG

    run = config.stash[RUN_CONFIG]
    name = run.agent or ""
    vendor = OPENAI if is_openai_model(name) else ANTHROPIC if is_anthropic_model(name) else None
    if vendor is None:
        return {}
    try:
        parsed = LLMSettings.parse(vendor.model_of(name), dict(run.agent_options))
    except ValueError:
        return {}  # the run fails on it with the agent's own message
    kept = ("model", "observation", "action_space", "temperature", "top_p", "max_tokens", "history", "a11y_max_tokens",
            "execution_feedback", "rag_docs", "rag_topk", "screenshot_max_width")
    return {"vendor": vendor.name, **{key: getattr(parsed, key) for key in kept}}
