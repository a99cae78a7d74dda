"""ServiceNow's getter (reference section 3), as the original's: ``workarena_task_result`` gives
``"succeed"`` when the WorkArena task that ``workarena_task_init`` set up validates the final
state, else ``"failed"``.

The task validates the tab whose URL is in the browser's address bar (every tab is reloaded
first, since a tab's URL is stale until then). For the tasks that answer in the chat
(KnowledgeBaseSearchTask), the text of the guest file ``path`` is the agent's answer. ``close``
(default true) tears the task down afterwards; WorkArena then deletes the user it made.

A validation that cannot find the active tab, or that WorkArena cannot complete, is "failed",
as in the original: the final state is the agent's. A session that was never set up is a
harness fault and raises. Implemented, verified only with an account.
"""

from __future__ import annotations

import logging
from typing import TypedDict

from pytest_spider2v.clouds.servicenow import (
    VALIDATE_TIMEOUT,
    WorkArenaError,
    WorkArenaSession,
    instance_settings,
    same_page,
    session,
)
from pytest_spider2v.getters.web import active_url_from_accessTree
from pytest_spider2v.registry import getters
from pytest_spider2v.run.task_context import TaskContext

logger = logging.getLogger(__name__)

SUCCEED, FAILED = "succeed", "failed"


# -- what each getter reads of its task's getter object (the fields the task schema gives it) --

class TaskResultSpec(TypedDict, total=False):
    settings_file: str
    path: str  # the guest file holding the agent's answer, for a task that asks one
    close: bool


@getters.register("workarena_task_result", account="servicenow")
def workarena_task_result(ctx: TaskContext, spec: TaskResultSpec) -> str:
    instance_settings(ctx, spec, "workarena_task_result")  # a missing or malformed file is named here
    workarena = session(ctx)
    answer = None
    if spec.get("path"):
        data = ctx.env.download(str(spec["path"]))
        answer = data.decode("utf-8", errors="replace") if data is not None else None
    close = bool(spec.get("close", True))
    active = active_url_from_accessTree(ctx, {"goto_prefix": "https://"})
    if active is None:
        logger.info("workarena_task_result: no address bar in the browser")
        return _failed(workarena, close)
    urls = workarena.call("/pages", {}, timeout=VALIDATE_TIMEOUT)["urls"]
    page = next((index for index, url in enumerate(urls) if same_page(url, active)), None)
    if page is None:
        logger.info("workarena_task_result: no tab shows the address bar's %s (tabs: %s)", active, urls)
        return _failed(workarena, close)
    try:
        reply = workarena.call("/validate", {"page": page, "answer": answer, "close": close},
                               timeout=VALIDATE_TIMEOUT)
    except WorkArenaError as exc:
        logger.info("workarena_task_result: %s", exc)
        return FAILED
    logger.info("workarena_task_result: reward %s, %s", reply["reward"], reply.get("info"))
    return SUCCEED if reply["reward"] else FAILED


def _failed(workarena: WorkArenaSession, close: bool) -> str:
    if close:
        workarena.call("/close", {}, timeout=VALIDATE_TIMEOUT)
    return FAILED
