"""The episode's video as a pytest-html media extra, played in the report's media panel.

A self-contained report carries its media inline, so the video is embedded (base64) up to
:data:`EMBED_LIMIT`; a longer one, and every video of a report with an assets folder, is linked
where it lies in the record, relative to the report, like the full-size screenshots: the
results folder already holds the file, and copying it would double what a run leaves on disk.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from pytest_spider2v.reports.html import relative_link

#: The largest video a self-contained report embeds (base64 adds a third): a few minutes of a
#: mostly still desktop at a few frames a second.
EMBED_LIMIT = 32 * 2**20


def video_extra(result: dict[str, Any], directory: Path, link_base: Path | None,
                self_contained: bool) -> dict[str, Any] | None:
    """pytest-html's video extra for the record's video, or None when it has none."""
    from pytest_html import extras

    name = (result.get("video") or {}).get("file")
    path = directory / name if name else None
    if path is None or not path.is_file():
        return None
    if self_contained and path.stat().st_size <= EMBED_LIMIT:
        content = base64.b64encode(path.read_bytes()).decode("ascii")
    else:
        content = relative_link(path, link_base)
    seconds = result["video"].get("seconds")
    label = f"episode video ({seconds:.0f} s)" if isinstance(seconds, (int, float)) else "episode video"
    return dict(extras.video(content, name=label))
