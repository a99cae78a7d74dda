"""Near misses of images: a pixel or structure comparison catches both; a colour-histogram
comparison (the original's Jupyter and Metabase checks) passes a mirrored chart, which the
near-miss check reports as lax."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from tests.support.near_misses import assert_all_caught, near_misses_of


def _chart(path: Path) -> str:
    image = Image.new("RGB", (320, 240), "white")
    draw = ImageDraw.Draw(image)
    for i, height in enumerate((60, 140, 90, 200, 30)):
        draw.rectangle((20 + i * 60, 230 - height, 60 + i * 60, 230), fill=(40, 90 + i * 30, 160))
    image.save(path)
    return str(path)


def test_structure_and_pixel_comparisons_catch_both(tmp_path: Path) -> None:
    chart = _chart(tmp_path / "chart.png")
    assert_all_caught(near_misses_of("compare_images", chart, chart, workdir=tmp_path / "s"), 2)
    assert_all_caught(near_misses_of("compare_image_list", [chart, chart], [chart, chart], workdir=tmp_path / "l"), 4)


def test_a_histogram_comparison_passes_a_mirrored_chart(tmp_path: Path) -> None:
    chart = _chart(tmp_path / "chart.png")
    found = near_misses_of("compare_jupyterlab_images", chart, chart, workdir=tmp_path / "h")
    assert [t.kind for t in found.lax] == ["image mirrored"]
    assert len(found.caught) == 1
