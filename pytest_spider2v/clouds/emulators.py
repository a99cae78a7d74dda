"""The emulators ``--cloud emulate`` points account tasks at, registered in
:data:`pytest_spider2v.registry.emulators`: what settings point at each, and which tasks each
cannot serve.

Each emulator runs inside the task's own environment (the ``clouds`` image's services), so every
worker has its own and a reset restores it. Which tasks it cannot serve is read from the task,
by rules measured against the emulator (docs/accounts.md): the names it lacks are marked
``not_emulated`` where they are registered; the rules here cover what a task's data and SQL need.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path

from pytest_spider2v.clouds import snowflake
from pytest_spider2v.clouds.bigquery import DEFAULT_CONFIG, DEFAULT_PROJECT, EMULATOR_PORT
from pytest_spider2v.clouds.settings import GUEST_PREFIX
from pytest_spider2v.registry import emulators
from pytest_spider2v.tasks.availability import SETTINGS_PREFIX
from pytest_spider2v.tasks.model import StepSpec, Task

#: A BigQuery console deep link's project and dataset (``ws=!1m4!1m3!3m2!1s<project>!2s<dataset>``).
WORKSPACE_LINK = re.compile(r"!1s([\w.-]+)!2s([\w.-]+)")
#: A table named in code by its project, dataset and name, quoted (as GoogleSQL needs a project id
#: with hyphens to be, and as client code passes it): ``\`bigquery-public-data.openaq.t\```.
QUALIFIED_TABLE = re.compile(r"[`'\"]([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\.(\w+)\.(?:\w+|\*)")
#: Steps whose ``src`` is a task file put into the guest (and run there, for the second).
COPYING_STEPS = frozenset({"copyfile_from_host_to_guest", "script_and_execute"})
#: What bqemulator 1.4 lacks that a getter's SQL may use, measured: pattern -> why. (Its
#: INFORMATION_SCHEMA.COLUMNS.column_default the clouds image adds: recipes/clouds/patches/.)
SQL_GAPS: dict[str, str] = {
    r"INFORMATION_SCHEMA\.JOBS": "it has no INFORMATION_SCHEMA.JOBS (job history)",
}
#: Steps that set up the browser and the console, and bring no data into the project.
NO_DATA_STEPS = frozenset({"google_chrome_browser", "bigquery_login", "bigquery_init"})


def sql_gaps(task: Task, sql_file: str, gaps: dict[str, str], role: str, emulator: str) -> list[str]:
    """What the task's SQL file (its ``role``: "its setup script") uses that the ``emulator``
    lacks, one reason per pattern of ``gaps`` it matches."""
    try:
        sql = task.host_path(sql_file).read_text(encoding="utf-8")
    except OSError:
        return []  # a missing file is the needs analysis's to report
    return [f"{role} ({Path(sql_file).name}) needs what {emulator} lacks: {why}"
            for pattern, why in gaps.items() if re.search(pattern, sql, re.IGNORECASE)]


def copied_files(task: Task, steps: list[StepSpec], types: Collection[str] = COPYING_STEPS) -> list[tuple[str, str]]:
    """(file name, text) of each readable text file the steps of ``types`` put into the guest."""
    files = []
    for step in steps:
        source = step.parameters.get("src") if step.type in types else None
        if isinstance(source, str):
            try:
                files.append((Path(source).name, task.host_path(source).read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                pass  # a missing file is the needs analysis's; a binary one holds no code to read
    return files


class BigQueryEmulator:
    """bqemulator (DuckDB behind BigQuery's REST API) in the environment, port 9050."""

    title = "BigQuery: bqemulator 1.4"
    accounts = ("bigquery",)

    def write_settings(self, folder: Path) -> None:
        path = folder / DEFAULT_CONFIG.removeprefix(SETTINGS_PREFIX)
        path.parent.mkdir(parents=True, exist_ok=True)
        project = {"project_name": DEFAULT_PROJECT, "project_id": DEFAULT_PROJECT,
                   "api_endpoint": f"{GUEST_PREFIX}{EMULATOR_PORT}"}
        path.write_text(json.dumps([project], indent=2) + "\n", encoding="utf-8")

    def task_reasons(self, task: Task) -> list[str]:
        reasons = []
        ev = task.spec.evaluator
        steps = [*task.spec.config, *ev.postconfig]
        for step in steps:
            if step.type == "bigquery_login" and (link := WORKSPACE_LINK.search(str(step.parameters.get("ws") or ""))):
                reasons.append(f"opens the dataset {link[1]}.{link[2]} (bigquery_login ws), which the emulator "
                               "does not hold")
        for name, text in copied_files(task, steps):
            outside = sorted({f"{m[1]}.{m[2]}" for m in QUALIFIED_TABLE.finditer(text) if m[1] != DEFAULT_PROJECT})
            reasons += [f"its code ({name}) reads the dataset {dataset}, outside the task's project, which the "
                        "emulator does not hold" for dataset in outside]
        actions = [a for s in steps if s.type == "bigquery_init" for a in s.parameters.get("actions") or []
                   if isinstance(a, dict)]
        if any(a.get("type") == "copy_keyfile" for a in actions):
            reasons.append("gives the agent a service account's key for its own client (bigquery_init "
                           "copy_keyfile); against the emulator there is none")
        results = ev.result if isinstance(ev.result, list) else [ev.result]
        brings_data = any(a.get("type") == "create_table" for a in actions) or any(
            s.type not in NO_DATA_STEPS for s in steps)
        if not reasons and not brings_data and any(r is not None and r.type == "vm_file" for r in results):
            reasons.append("the project starts empty, the task brings no data into it, and the answer is a "
                           "file: the data it queries lies outside the project (a public dataset), which the "
                           "emulator does not hold")
        for spec in results:
            sql_file = (spec.model_extra or {}).get("sql") if spec is not None else None
            if isinstance(sql_file, str):
                reasons += sql_gaps(task, sql_file, SQL_GAPS, "its evaluation query", "bqemulator")
        return reasons



class SnowflakeEmulator:
    """fakesnow's server (DuckDB and sqlglot behind the Snowflake connector's protocol) in the
    environment, port 8090, its databases in memory."""

    title = "Snowflake: fakesnow 0.12"
    accounts = ("snowflake",)
    #: What fakesnow 0.12 lacks that a task's own SQL may use, measured: pattern -> why. (COPY INTO's use
    #: of a stage's file format the clouds image adds: recipes/clouds/patches/.)
    SQL_GAPS: dict[str, str] = {
        r"\bFROM\s+SHARE\b": "it has no shares (the Marketplace)",
    }

    def write_settings(self, folder: Path) -> None:
        path = folder / snowflake.DEFAULT_SETTINGS.removeprefix(SETTINGS_PREFIX)
        path.parent.mkdir(parents=True, exist_ok=True)
        settings = {"account": "fakesnow", "user": "spider2v", "password": "emulated",
                    "host": f"{GUEST_PREFIX}{snowflake.EMULATOR_PORT}"}
        path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")

    def task_reasons(self, task: Task) -> list[str]:
        reasons = []
        ev = task.spec.evaluator
        steps = [*task.spec.config, *ev.postconfig]
        results = [r for r in (ev.result if isinstance(ev.result, list) else [ev.result]) if r is not None]
        if any(r.type == "active_url_from_accessTree" for r in results):
            reasons.append("its evaluation reads the browser's address (a Snowsight page), and the emulator has "
                           "no console")
        metrics = ev.func if isinstance(ev.func, list) else [ev.func]
        if any(m in {"compare_images", "compare_image_list"} for m in metrics):
            reasons.append("its answer is an image (a chart drawn in Snowsight), and the emulator has no console")
        copied = copied_files(task, steps, {"copyfile_from_host_to_guest"})
        texts = [task.spec.model_dump_json(), *(text for _, text in copied)]
        if any("s3://" in text for text in texts):
            reasons.append("it loads from Amazon S3 (an s3:// URL in the task or a file it copies), which the "
                           "emulator cannot reach")
        actions = [a for s in steps if s.type == "snowflake_init" for a in s.parameters.get("actions") or []
                   if isinstance(a, dict)]
        for action in actions:
            script = action.get("sql_script")
            if action.get("type") == "execute_script" and isinstance(script, str):
                reasons += sql_gaps(task, script, self.SQL_GAPS, "its setup script", "fakesnow")
        brings_data = any(a.get("type") in {"execute_script", "create_table"} for a in actions) or any(
            s.type not in {"google_chrome_browser", "snowflake_login", "snowflake_init"} for s in steps)
        reads_database = any(r.type in {"snowflake_table_to_csv", "snowflake_database_schema_to_csv"} for r in results)
        if not brings_data and reads_database:
            reasons.append("the account starts without the task's data, the task brings none, and its result reads "
                           "a database: the data comes from a share or the Marketplace, which the emulator does not have")
        return reasons


emulators.add("bigquery", BigQueryEmulator())
emulators.add("snowflake", SnowflakeEmulator())
