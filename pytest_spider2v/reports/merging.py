"""Shards of one run combined into one run folder (``spider2v-report merge``): the selection
split across machines (``-k``, ``--deselect``) or across days, merged so that its tables are
those of one run over the whole selection.

Shards are refused, with the fields named, when they are not parts of one run: manifests that
differ in anything that changes scores (the agent and its parameters included, see
:func:`.manifest.differences`), a shard without a manifest, or a task recorded by two shards.
The merged manifest is the first shard's, its task set and images recomputed from the records,
started at the earliest shard's start, finished at the latest's end, with the shards listed.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from pytest_spider2v.reports import manifest
from pytest_spider2v.reports.runs import RecordedRun
from pytest_spider2v.reports.summary import SUMMARY_FILE, summarize
from pytest_spider2v.run.json_values import JsonObject
from pytest_spider2v.run.records import write_json_atomic


class MergeRefused(ValueError):
    """The shards are not parts of one run; the message names why."""


def merge(shards: Sequence[RecordedRun], into: Path) -> RecordedRun:
    """Copy the shards' records into the new run folder ``into`` and write its manifest and summary."""
    problems = refusals(shards)
    if problems:
        raise MergeRefused("not parts of one run:\n" + "\n".join(f"  {p}" for p in problems))
    if into.exists() and any(into.iterdir()):
        raise MergeRefused(f"{into} exists and is not empty: merge into a new run folder")
    for shard in shards:
        for relative, folder in shard.record_folders().items():
            shutil.copytree(folder, into / relative)
    merged = RecordedRun.read(into)
    done = merged_manifest(shards, merged)
    write_json_atomic(into / manifest.MANIFEST_FILE, done)
    write_json_atomic(into / SUMMARY_FILE, {**summarize(merged.tasks).to_json(), "manifest": done})
    return RecordedRun.read(into)


def refusals(shards: Sequence[RecordedRun]) -> list[str]:
    """Why the shards cannot be merged; empty when they can."""
    if len(shards) < 2:
        return ["give at least two shards"]
    found = [f"{shard.name}: no manifest (a run from before manifests): its conditions are unknown"
             for shard in shards if not shard.manifest]
    first = shards[0]
    for shard in shards[1:]:
        if first.manifest and shard.manifest:
            found += [f"{first.name} vs {shard.name}: {field}"
                      for field in manifest.differences(first.manifest, shard.manifest, identity=True)]
        if first.manifest.get("repeats") != shard.manifest.get("repeats"):
            found.append(f"{first.name} vs {shard.name}: repeats: {first.manifest.get('repeats')} vs "
                         f"{shard.manifest.get('repeats')}")
    owners: dict[str, str] = {}
    for shard in shards:
        for relative in shard.record_folders():
            if relative in owners:
                found.append(f"{relative}: recorded by both {owners[relative]} and {shard.name}")
            owners[relative] = shard.name
    return found


def merged_manifest(shards: Sequence[RecordedRun], merged: RecordedRun) -> JsonObject:
    starts = [str(s.manifest.get("started")) for s in shards if s.manifest.get("started")]
    ends = [str(s.manifest.get("finished")) for s in shards if s.manifest.get("finished")]
    done = manifest.completed({**shards[0].manifest, "run": merged.name}, merged.tasks, finished=False)
    done.update(started=min(starts) if starts else None, finished=max(ends) if ends else None)
    done["merged_from"] = [{"run": s.name, "started": s.manifest.get("started"), "finished": s.manifest.get("finished"),
                            "commit": manifest.value_at(s.manifest, "project.commit"),
                            "machine": s.manifest.get("machine"), "tasks": len(s.tasks)} for s in shards]
    return done
