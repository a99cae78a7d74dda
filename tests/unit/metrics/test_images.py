"""Image metrics on real PNGs drawn with Pillow: a chart, a scaled copy, a copy with a small
difference and a colour-shifted copy; a pass, a fail and a bad input for each metric."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from pytest_spider2v.metrics.images import (
    _correlation,
    compare_image_list,
    compare_images,
    compare_jupyterlab_images,
    compare_metabase_images,
)

BAR_COLOUR = (80, 150, 220)
SIZE = (480, 320)


def _chart(bars: tuple[int, ...] = (120, 200, 90, 160), colour: tuple[int, int, int] = BAR_COLOUR) -> Image.Image:
    """A bar chart like the ones Metabase and Matplotlib draw: white ground, axes, labels, bars."""
    image = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(image)
    draw.line([(40, 20), (40, 280), (460, 280)], fill="black", width=2)
    for i, height in enumerate(bars):
        left = 70 + i * 95
        draw.rectangle([left, 280 - height, left + 60, 279], fill=colour)
        draw.text((left + 15, 290), f"Q{i + 1}", fill="black")
    draw.text((180, 4), "Revenue by quarter", fill="black")
    return image


def _save(tmp_path: Path, name: str, image: Image.Image) -> Path:
    path = tmp_path / name
    image.save(path)
    return path


@pytest.fixture
def chart(tmp_path: Path) -> Path:
    return _save(tmp_path, "expected.png", _chart())


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    return _save(tmp_path, "copy.png", _chart())


@pytest.fixture
def scaled(tmp_path: Path) -> Path:
    return _save(tmp_path, "scaled.png", _chart().resize((960, 640), Image.Resampling.LANCZOS))


@pytest.fixture
def touched(tmp_path: Path) -> Path:
    """The chart with one pixel changed: what a pixel-exact comparison must notice."""
    image = _chart()
    image.putpixel((300, 100), (255, 0, 0))
    return _save(tmp_path, "touched.png", image)


@pytest.fixture
def recoloured(tmp_path: Path) -> Path:
    """The chart in a darker theme: every channel shifted down by 40."""
    return _save(tmp_path, "recoloured.png", _chart().point(lambda value: max(value - 40, 0)))


@pytest.fixture
def red_bars(tmp_path: Path) -> Path:
    return _save(tmp_path, "red_bars.png", _chart(colour=(220, 60, 40)))


@pytest.fixture
def other_data(tmp_path: Path) -> Path:
    return _save(tmp_path, "other_data.png", _chart(bars=(40, 240, 60, 220)))


@pytest.fixture
def not_an_image(tmp_path: Path) -> Path:
    path = tmp_path / "not_an_image.png"
    path.write_text("<html>404 Not Found</html>", encoding="utf-8")
    return path


def test_compare_images(chart: Path, scaled: Path, touched: Path, other_data: Path, not_an_image: Path,
                        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert compare_images(scaled, chart) == 1.0
    assert compare_images(touched, chart) == 1.0
    with caplog.at_level(logging.INFO, logger="pytest_spider2v.metrics"):
        assert compare_images(other_data, chart) == 0.0
    assert "SSIM" in caplog.text
    assert compare_images(not_an_image, chart) == 0.0
    assert compare_images(None, chart) == 0.0
    assert compare_images(_save(tmp_path, "tiny.png", Image.new("RGB", (5, 5))), chart) == 0.0


def test_compare_metabase_images(chart: Path, scaled: Path, recoloured: Path, red_bars: Path, not_an_image: Path,
                                 caplog: pytest.LogCaptureFixture) -> None:
    assert compare_metabase_images(scaled, chart) == 1.0
    assert compare_metabase_images(chart, scaled) == 1.0
    # As in the original, the min-max normalised histogram is dominated by the background:
    # recolouring only the bars keeps the correlation above 0.91.
    assert compare_metabase_images(red_bars, chart) == 1.0
    with caplog.at_level(logging.INFO, logger="pytest_spider2v.metrics"):
        assert compare_metabase_images(recoloured, chart) == 0.0
    assert "correlation" in caplog.text
    assert compare_metabase_images(not_an_image, chart) == 0.0
    assert compare_metabase_images(chart, None) == 0.0


def test_compare_jupyterlab_images(chart: Path, copy: Path, touched: Path, red_bars: Path, recoloured: Path,
                                   tmp_path: Path) -> None:
    assert compare_jupyterlab_images(copy, chart) == 1.0
    assert compare_jupyterlab_images(touched, chart) == 0.0
    assert compare_jupyterlab_images(red_bars, chart) == 0.0
    assert compare_jupyterlab_images(recoloured, chart) == 0.0
    assert compare_jupyterlab_images(tmp_path / "absent.png", chart) == 0.0


def test_histogram_correlation_matches_opencv_definition() -> None:
    """HISTCMP_CORREL is Pearson's r, and 1 for a histogram without variance."""
    rng = np.random.default_rng(0)
    a, b = rng.random(256).astype(np.float32), rng.random(256).astype(np.float32)
    assert _correlation(a, b) == pytest.approx(np.corrcoef(a, b)[0, 1], abs=1e-9)
    assert _correlation(a, a) == 1.0
    assert _correlation(np.zeros(256, np.float32), a) == 1.0


def test_compare_image_list(chart: Path, copy: Path, touched: Path, scaled: Path, not_an_image: Path,
                            tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert compare_image_list(copy, chart) == 1.0
    assert compare_image_list([copy, str(scaled)], [chart, scaled]) == 1.0
    with caplog.at_level(logging.INFO, logger="pytest_spider2v.metrics"):
        assert compare_image_list(touched, chart) == 0.0
    assert "(300, 100, 301, 101)" in caplog.text
    assert compare_image_list([copy, touched], [chart, chart]) == 0.0
    assert compare_image_list(scaled, chart) == 0.0
    assert compare_image_list([copy], [chart, chart]) == 0.0
    assert compare_image_list([copy, None], [chart, chart]) == 0.0
    assert compare_image_list(not_an_image, chart) == 0.0


def test_compare_image_list_sees_colour_changes_in_opaque_rgba(tmp_path: Path) -> None:
    """Pillow's default getbbox looks only at alpha; an opaque RGBA recolouring must still fail."""
    opaque = _save(tmp_path, "opaque.png", _chart().convert("RGBA"))
    recoloured = _save(tmp_path, "recoloured_rgba.png", _chart(colour=(81, 150, 220)).convert("RGBA"))
    assert compare_image_list(recoloured, opaque) == 0.0
    assert compare_image_list(opaque, opaque) == 1.0
