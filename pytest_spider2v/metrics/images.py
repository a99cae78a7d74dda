"""Image metrics (reference section 3.4): SSIM, green-channel histogram correlation, pixel equality.

The histogram metrics reproduce OpenCV's ``calcHist`` / ``normalize(NORM_MINMAX)`` /
``compareHist(HISTCMP_CORREL)`` pipeline with numpy, so that scores match the original's
without depending on OpenCV. A missing or undecodable image scores 0 with the reason logged.

Pillow, numpy and scikit-image are imported inside the functions: every metric is registered at
start-up (collection checks task files against the names), and only runs that score images
should pay for loading them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_spider2v.metrics.files import FileArg, existing_file
from pytest_spider2v.registry import metrics

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

logger = logging.getLogger(__name__)

SSIM_THRESHOLD = 0.98
METABASE_CORRELATION_THRESHOLD = 0.91


def _open_image(path: FileArg, role: str) -> Image.Image | None:
    """The decoded image at ``path``, or None (logged) if it is missing or not an image."""
    from PIL import Image

    resolved = existing_file(path, role)
    if resolved is None:
        return None
    try:
        with Image.open(resolved) as image:
            image.load()
            return image.copy()
    except (OSError, Image.DecompressionBombError) as exc:
        logger.info("%s file %s is not a readable image: %s", role, resolved, exc)
        return None


@metrics.register()
def compare_images(result: FileArg, expected: FileArg) -> float:
    """1.0 if the grayscale SSIM of the two images exceeds 0.98, after resizing both (Lanczos) to
    the smaller one's size (the smaller ``(width, height)`` tuple, as the original)."""
    import numpy as np
    from PIL import Image
    from skimage.metrics import structural_similarity

    a, b = _open_image(result, "result"), _open_image(expected, "expected")
    if a is None or b is None:
        return 0.0
    size = min(a.size, b.size)
    a_pixels = np.asarray(a.convert("L").resize(size, Image.Resampling.LANCZOS))
    b_pixels = np.asarray(b.convert("L").resize(size, Image.Resampling.LANCZOS))
    try:
        similarity = float(structural_similarity(a_pixels, b_pixels))
    except ValueError as exc:  # images smaller than SSIM's 7x7 window
        logger.info("compare_images: SSIM not computable at size %s: %s", size, exc)
        return 0.0
    if similarity > SSIM_THRESHOLD:
        return 1.0
    logger.info("compare_images: SSIM %.4f <= %.2f", similarity, SSIM_THRESHOLD)
    return 0.0


def _green_histogram(image: Image.Image) -> np.ndarray:
    """256-bin histogram of channel 1 (green; OpenCV's BGR order has it at the same index),
    min-max normalised to [0, 1] as float32 like ``cv2.normalize``; a flat histogram becomes 0."""
    import numpy as np

    green = np.asarray(image.convert("RGB"))[:, :, 1]
    counts = np.bincount(green.ravel(), minlength=256).astype(np.float64)
    low, high = counts.min(), counts.max()
    if high == low:
        return np.zeros(256, dtype=np.float32)
    return ((counts - low) / (high - low)).astype(np.float32)


def _correlation(h1: np.ndarray, h2: np.ndarray) -> float:
    """OpenCV's HISTCMP_CORREL: Pearson correlation in double precision, 1.0 when either
    histogram has no variance."""
    import numpy as np

    a, b = h1.astype(np.float64), h2.astype(np.float64)
    n = a.size
    s1, s2 = a.sum(), b.sum()
    numerator = (a * b).sum() - s1 * s2 / n
    denominator2 = ((a * a).sum() - s1 * s1 / n) * ((b * b).sum() - s2 * s2 / n)
    if abs(denominator2) <= np.finfo(np.float64).eps:
        return 1.0
    return float(numerator / np.sqrt(denominator2))


def _histogram_correlation(result: FileArg, expected: FileArg) -> float | None:
    """Green-channel histogram correlation after scaling the larger image (by ``(width,
    height)`` tuple) to the other's width, keeping its aspect ratio; None if an image is missing."""
    from PIL import Image

    a, b = _open_image(result, "result"), _open_image(expected, "expected")
    if a is None or b is None:
        return None
    if a.size > b.size:
        a = a.resize((b.width, int(a.height * b.width / a.width)), Image.Resampling.BILINEAR)
    else:
        b = b.resize((a.width, int(b.height * a.width / b.width)), Image.Resampling.BILINEAR)
    return _correlation(_green_histogram(a), _green_histogram(b))


@metrics.register()
def compare_metabase_images(result: FileArg, expected: FileArg) -> float:
    """1.0 if the green-channel histogram correlation exceeds 0.91: tolerant of a chart drawn
    at another size or with slightly different anti-aliasing, not of a different palette or
    background. The normalised histogram is dominated by the background, so recolouring a small
    part of a chart can still pass, as in the original."""
    correlation = _histogram_correlation(result, expected)
    if correlation is None:
        return 0.0
    if correlation > METABASE_CORRELATION_THRESHOLD:
        return 1.0
    logger.info("compare_metabase_images: histogram correlation %.4f <= %.2f", correlation, METABASE_CORRELATION_THRESHOLD)
    return 0.0


@metrics.register()
def compare_jupyterlab_images(result: FileArg, expected: FileArg) -> float:
    """1.0 if the green-channel histogram correlation is exactly 1.0 (same colour distribution)."""
    correlation = _histogram_correlation(result, expected)
    if correlation is None:
        return 0.0
    if correlation == 1.0:
        return 1.0
    logger.info("compare_jupyterlab_images: histogram correlation %.6f != 1", correlation)
    return 0.0


@metrics.register()
def compare_image_list(result: FileArg | Sequence[FileArg], expected: FileArg | Sequence[FileArg]) -> float:
    """1.0 if every result image is pixel-identical to its expected image (same size, same mode,
    an all-zero difference). A single path compares as a one-item list; lists must be equally long
    (the original zipped them and ignored extra items)."""
    from PIL import ImageChops

    results = list(result) if isinstance(result, (list, tuple)) else [result]
    expecteds = list(expected) if isinstance(expected, (list, tuple)) else [expected]
    if len(results) != len(expecteds):
        logger.info("compare_image_list: %d result images, %d expected", len(results), len(expecteds))
        return 0.0
    for index, (result_path, expected_path) in enumerate(zip(results, expecteds)):
        a, b = _open_image(result_path, f"result[{index}]"), _open_image(expected_path, f"expected[{index}]")  # type: ignore[arg-type]  # a list of lists is no image path: _open_image reports it
        if a is None or b is None:
            return 0.0
        if a.size != b.size or a.mode != b.mode:
            logger.info("compare_image_list: image %d is %s %s, expected %s %s", index, a.mode, a.size, b.mode, b.size)
            return 0.0
        # alpha_only=False: Pillow's default looks only at the alpha band of RGBA images, which
        # would call two opaque screenshots with different colours identical.
        box = ImageChops.difference(a, b).getbbox(alpha_only=False)
        if box is not None:
            logger.info("compare_image_list: image %d differs inside %s", index, box)
            return 0.0
    return 1.0
