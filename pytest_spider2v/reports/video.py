"""The episode's video as a pytest-html media extra, played in the report's media panel.

A self-contained report carries its media inline, so the video is embedded (base64) up to
:data:`EMBED_LIMIT`; a longer one, and every video of a report with an assets folder, is linked
where it lies in the record, relative to the report, like the full-size screenshots: the
results folder already holds the file, and copying it would double what a run leaves on disk.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_spider2v.reports.html import relative_link
from pytest_spider2v.run.results import TaskResult

#: The largest video a self-contained report embeds (base64 adds a third): a few minutes of a
#: mostly still desktop at a few frames a second.
EMBED_LIMIT = 32 * 2**20


def video_extra(result: TaskResult, directory: Path, link_base: Path | None,
                self_contained: bool) -> Mapping[str, Any] | None:
    """pytest-html's video extra for the record's video, or None when it has none."""
    # pytest-html ships no types, and tox type-checks without it
    from pytest_html import extras

    video = result.video
    path = directory / video.file if video is not None and video.file else None
    if video is None or path is None or not path.is_file():
        return None
    if self_contained and path.stat().st_size <= EMBED_LIMIT:
        content = base64.b64encode(path.read_bytes()).decode("ascii")
    else:
        content = relative_link(path, link_base)
    label = f"episode video ({video.seconds:.0f} s)" if video.seconds is not None else "episode video"
    return dict(extras.video(content, name=label))
