"""Screenshots as small inline images, so a self-contained HTML report stays a manageable size.

A 1920x1080 PNG screenshot is ~1-3 MB; downscaled to 1280 px and stored as a JPEG (quality 70) it
is ~100 KB, which keeps a report with hundreds of steps openable in a browser.

Pillow is imported when a report is written, not when the plugin loads.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

MAX_WIDTH = 1280
JPEG_QUALITY = 70


def jpeg_data_uri(path: Path, max_width: int = MAX_WIDTH, quality: int = JPEG_QUALITY) -> str | None:
    """The image at ``path`` as a ``data:image/jpeg;base64,...`` URI, or None if it is missing/unreadable."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as opened:
            image = opened.convert("RGB")
            if image.width > max_width:
                height = max(1, round(image.height * max_width / image.width))
                image = image.resize((max_width, height), Image.Resampling.LANCZOS)
            buffer = io.BytesIO()
            image.save(buffer, format="JPEG", quality=quality, optimize=True)
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
