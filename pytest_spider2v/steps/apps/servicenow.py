"""ServiceNow setup steps (reference section 2.2), through WorkArena as the original:
``workarena_task_init`` makes the WorkArena task ``task_name`` (with ``task_kwargs``) on the
instance of ``settings/servicenow/settings.json`` and opens its start page in the guest's
Chromium (attached on ``listening_port``, default 9222); ``workarena_unique_fields`` appends
``<label>: <value>`` lines to ``path`` (default ``~/Desktop/unique_fields.txt``) for the task's
randomly made unique fields (``field_mappings``: template-record field -> label), so that an
instruction can name them without their values.

The task object stays in WorkArena's session in the environment until ``workarena_task_result``
validates it (:mod:`pytest_spider2v.clouds.servicenow`). Implemented, verified only with an
account: no emulator of a ServiceNow instance exists.
"""

from __future__ import annotations

import logging
import shlex
from typing import Any

from pytest_spider2v.clouds.servicenow import SETUP_TIMEOUT, instance_settings, session
from pytest_spider2v.registry import setup_steps
from pytest_spider2v.run.task_context import TaskContext
from pytest_spider2v.run.task_helpers import StepError

logger = logging.getLogger(__name__)

DEFAULT_UNIQUE_FIELDS = "/home/user/Desktop/unique_fields.txt"


@setup_steps.register("workarena_task_init", account="servicenow")
def workarena_task_init(ctx: TaskContext, task_name: str, listening_port: int = 9222,
                        settings_file: str | None = None, task_kwargs: dict[str, Any] | None = None) -> None:
    settings = instance_settings(ctx, {"settings_file": settings_file}, "workarena_task_init")
    reply = session(ctx).call("/setup", {
        "task_name": task_name, "task_kwargs": task_kwargs or {},
        "cdp_url": f"http://127.0.0.1:{listening_port}", "settings": settings,
    }, timeout=SETUP_TIMEOUT)
    logger.info("workarena_task_init: %s is set up; its goal: %s", task_name, reply.get("goal"))


@setup_steps.register("workarena_unique_fields", account="servicenow")
def workarena_unique_fields(ctx: TaskContext, field_mappings: dict[str, str] | list[Any] | None = None,
                            path: str = DEFAULT_UNIQUE_FIELDS) -> None:
    if not field_mappings:  # the original's tasks write `[]` for "none"
        return
    if not isinstance(field_mappings, dict):
        raise StepError(f"workarena_unique_fields.field_mappings: expected field -> label, got {field_mappings!r}")
    values = session(ctx).call("/template_record", {"fields": list(field_mappings)}, timeout=60.0)
    lines = "".join(f"{label}: {values[name]}\n" for name, label in field_mappings.items())
    result = ctx.env.execute(["bash", "-c", f"printf %s {shlex.quote(lines)} >> {shlex.quote(path)}"])
    if not result.ok:
        raise StepError(f"workarena_unique_fields: cannot write {path}: {(result.stderr or result.stdout).strip()}")
