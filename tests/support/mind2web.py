"""Small Mind2Web files for tests, written here in the card's snapshot schema and in the original
Multimodal-Mind2Web layout: a few tasks over two splits, page HTML, screenshots, an invalid row."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

from pytest_spider2v.formats.mind2web.answers import option_name


def screenshot(colour: tuple[int, int, int] = (200, 220, 255), size: tuple[int, int] = (64, 40), kind: str = "PNG") -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, kind)
    return buffer.getvalue()


def candidate(bnid: int, text: str, tag: str = "button") -> str:
    return f"<{tag} bnid={bnid}><text bnid={bnid + 1}>{text}</text></{tag}>"


def prompts(task: str, candidates: list[str], image: bytes | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The card's two prompts for one step, in the shape Parquet stores them (every part has
    ``type``, ``text`` and ``image_url``)."""
    user = [{"type": "text", "text": f"Task: {task}\nWhat is the next action?", "image_url": None}]
    if image is not None:
        url = "data:image/png;base64," + base64.b64encode(image).decode()
        user.append({"type": "image_url", "text": None, "image_url": {"url": url}})
    choices = "\n".join(f"{option_name(i)}. {c}" for i, c in enumerate(candidates))
    grounding = (f"(Multichoice Question)\n{choices}\n{option_name(len(candidates))}. None of the other options "
                 "match the correct element\n\n(Final Answer)\nELEMENT:\nACTION:\nVALUE:")
    return ([{"role": "system", "content": [{"type": "text", "text": "Imitate a person browsing.", "image_url": None}]},
             {"role": "user", "content": user}],
            [{"role": "user", "content": [{"type": "text", "text": grounding, "image_url": None}]}])


def card_row(task_id: str, split: str, step: int, *, target: int | None = 1, op: str = "CLICK", value: str = "",
             valid: bool = True, website: str = "adoptapet", domain: str = "Service", subdomain: str = "Pet",
             description: str = "Browse senior dogs near 90028.", n: int = 5, image: bytes | None = None) -> dict[str, Any]:
    """One row: ``n`` candidates, the ``target``-th the positive (None: no positive); ``image`` the
    screenshot (a small PNG by default)."""
    candidates = [candidate(100 * step + 10 * i, f"choice {i} of step {step}") for i in range(n)]
    targets = [candidates[target]] if target is not None else []
    image = image or screenshot((40 * step % 255, 120, 200))
    prompt_0, prompt_1 = prompts(description, candidates, image)
    html = "<html><body>" + "".join(candidates) + "</body></html>"
    return {"task_id": task_id, "split": split, "step": step, "task_description": description,
            "prompt_0": prompt_0, "prompt_1": prompt_1, "raw_html": "<!DOCTYPE html>" + html, "cleaned_html": html,
            "candidates": candidates, "target_elements": targets, "target_op": op, "target_op_value": value,
            "website": website, "domain": domain, "subdomain": subdomain, "is_valid": valid}


def card_rows() -> list[dict[str, Any]]:
    """Three tasks over two splits: ``t-dogs`` (three steps, a TYPE among them, and an invalid
    step without a positive), ``t-stock`` (two steps, a SELECT) and ``t-visa`` (one step)."""
    return [
        card_row("t-dogs", "test_domain", 0, target=2),
        card_row("t-dogs", "test_domain", 1, target=None, valid=False),
        card_row("t-dogs", "test_domain", 2, target=0, op="TYPE", value="new york"),
        card_row("t-stock", "test_website", 0, target=3, website="finance.google", domain="Info", subdomain="Finance",
                 description="Find the 1 month chart of AMC."),
        card_row("t-stock", "test_website", 1, target=4, op="SELECT", value="1 month", website="finance.google",
                 domain="Info", subdomain="Finance", description="Find the 1 month chart of AMC."),
        card_row("t-visa", "test_domain", 0, target=1, website="gov.uk", domain="Service", subdomain="Government",
                 description="How to extend the Global Talent visa"),
    ]


def write_parquet(path: Path, rows: list[dict[str, Any]], row_group_size: int | None = None) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=row_group_size)
    return path


def original_row(annotation_id: str, step: int, *, positives: int = 1, negatives: int = 30, op: str = "CLICK",
                 value: str = "", image: bool = True, task: str = "Find a flight to Paris.") -> dict[str, Any]:
    """A row of the original layout: candidates as the hub stores them (JSON text, attributes a
    JSON text too), the page with an element per candidate, the screenshot as an image struct."""
    def element(node: int, tag: str) -> str:
        attributes = json.dumps({"backend_node_id": str(node), "bounding_box_rect": "0,0,10,10", "class": "x",
                                 "aria_label": f"label {node}"})
        return json.dumps({"tag": tag, "attributes": attributes, "backend_node_id": str(node),
                           "is_original_target": tag == "button", "is_top_level_target": tag == "button"})

    pos = [element(1000 * (step + 1) + i, "button") for i in range(positives)]
    neg = [element(1000 * (step + 1) + 100 + i, "a") for i in range(negatives)]
    nodes = [1000 * (step + 1) + i for i in range(positives)] + [1000 * (step + 1) + 100 + i for i in range(negatives)]
    html = "<html><body>" + "".join(f'<div backend_node_id="{n}"><text backend_node_id="{n}9">item {n}</text></div>'
                                     for n in nodes) + "</body></html>"
    return {"annotation_id": annotation_id, "action_uid": f"{annotation_id}-{step}", "confirmed_task": task,
            "website": "kayak", "domain": "Travel", "subdomain": "Airlines",
            "operation": json.dumps({"original_op": op, "value": value, "op": op}),
            "pos_candidates": pos, "neg_candidates": neg, "raw_html": html, "cleaned_html": html,
            "action_reprs": [f"[button] step {i} -> CLICK" for i in range(3)], "target_action_index": str(step),
            "target_action_reprs": f"[button] step {step} -> {op}",
            "screenshot": {"bytes": screenshot() if image else None, "path": None}}
