"""Near misses of images (a saved chart, a screenshot): the image mirrored left to right (the
same colours, another chart: bars in reverse order), and its central quarter painted over with
the background colour (part of the chart gone)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pytest_spider2v.near_misses.values import numbered
from pytest_spider2v.registry import NearMiss, near_misses


def _variants(path: Any, workdir: Path) -> Iterator[tuple[str, str, Path]]:
    from PIL import Image, ImageOps

    if not isinstance(path, (str, Path)) or not Path(path).is_file():
        return
    try:
        with Image.open(path) as opened:
            image = opened.copy()
    except OSError:
        return
    name = Path(path).with_suffix(".png").name
    mirrored = numbered(workdir, name)
    ImageOps.mirror(image).save(mirrored)
    yield "image mirrored", Path(path).name, mirrored
    blanked = image.copy()
    background = max(blanked.getcolors(blanked.width * blanked.height) or [(0, 0)], key=lambda c: c[0])[1]
    width, height = blanked.size
    box = (width // 4, height // 4, width - width // 4, height - height // 4)
    blanked.paste(background, box)  # type: ignore[arg-type]  # getcolors gives (count, colour) pairs; a colour is what paste takes
    out = numbered(workdir, name)
    blanked.save(out)
    yield "region blanked", f"{Path(path).name}: the central quarter", out


def image_variants(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    for kind, where, path in _variants(result, workdir):
        yield NearMiss(kind, where, str(path))


for _metric in ("compare_images", "compare_jupyterlab_images", "compare_metabase_images"):
    near_misses.add(_metric, image_variants)


@near_misses.register("compare_image_list")
def image_list(result: Any, expected: Any, options: Mapping[str, Any], workdir: Path) -> Iterator[NearMiss]:
    """Each image of the list varied in turn, the others kept."""
    items: Sequence[Any] = list(result) if isinstance(result, (list, tuple)) else [result]
    for index, item in enumerate(items):
        for kind, where, path in _variants(item, workdir / str(index)):
            yield NearMiss(kind, f"image {index}: {where}", [*items[:index], str(path), *items[index + 1:]])
