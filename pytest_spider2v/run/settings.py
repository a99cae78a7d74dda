"""The limits a task's run keeps to, as the command line (or, for its episode, the agent) sets them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EpisodeSettings:
    """The episode's limits: agent turns (the paper's 15 steps), seconds, and the pause after
    each action before the screen is observed."""

    max_steps: int = 15
    time_limit: float = 1800.0
    sleep_after_action: float = 0.5


@dataclass(frozen=True)
class RunSettings:
    episode: EpisodeSettings
    retries: int = 0  #: further attempts after an infrastructure fault
    live: bool = False  #: serve each environment to a browser while the task runs
    record_video: bool = False  #: record the episode as an MP4 in the task's record
