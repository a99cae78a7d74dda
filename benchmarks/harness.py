"""What the harness costs, each figure beside the baseline it improves on, measured in the same
run on the same desktop (no model involved):

* **accessibility tree**: the fast walk against the original (naive) walk, alternately, on a Calc
  task's desktop and a Chromium task's desktop; on Calc also LibreOffice's own CPU time per walk,
  the floor under the walk's time;
* **reset**: restore + setup until the first settled observation, per image family, with a warm
  spare container waiting and without one;
* **step overhead**: one no-op action plus the observation after it, with a screenshot only and
  with the screenshot and the tree (``som``), on the Calc task's desktop;
* **video**: what recording the screen (``--record-video``) costs a step, on the same desktop,
  batches with the recorder off and on taken alternately: the runner's whole step (the action,
  the default settle time of 0.5 s, the screenshot after it) and the harness's share alone;
* **idle memory**: of a fresh container of each family, from the Docker engine's statistics;
* **whole suite**: ``pytest tasks/ --agent oracle`` at ``-n 1`` and at ``-n 2``;
* **InfiAgent-DABench**: its 257 questions with the reference agent at ``-n 2``;
* **cluster**: DABench questions with the reference agent on the Swarm lab
  (``scripts/swarm-lab.sh``, ``--provider swarm``), with one node active and with all three, in
  one run: what scaling out gives when each node has room for one desktop (the lab's nodes share
  this machine's cores, so it measures the placement, not more hardware);
* **cluster_suite**: the same for the suite's desktops, ``pytest tasks/ -m abstract --agent
  oracle`` (each task once, in its abstract variant) on the lab, one node against three, in one run;
* **integrity**: what the tamper checks add to a task (the baseline before the first action, the
  checks before and after the evaluation, as each record's ``integrity.seconds`` gives them), over
  the suite's tasks once each (``-m abstract``) with the reference agent at ``-n 2``;
* **mind2web**: collecting a Multimodal-Mind2Web file the size of the card's test splits (made
  here in its schema: 6,420 steps with pages and screenshots), and its run with the reference
  agent at ``-n 2``;
* **startup**: what every command pays before it does anything, ``pytest tasks/ --collect-only``,
  against a bare ``import pytest, xdist, pytest_html``, taken alternately in one run (medians of
  :data:`STARTUP_SAMPLES`): the target is their ratio, which the machine's speed and load divide out of.

Every figure is written to ``benchmarks/figures.json`` with its target, and the performance
table of the Figures page (``docs/figures.md``) is generated from that file, like the task table from the task files::

    python benchmarks/harness.py [--only tree,reset,step,video,memory,suite,dabench,cluster,cluster_suite,integrity,mind2web,reports,startup] [--repeat N]
    python benchmarks/harness.py --table --write docs/figures.md   # or --check docs/figures.md

``--only`` measures some parts and keeps the others' last figures; the suite takes about an hour
and a quarter on two cores, the suite on the lab about 45 minutes, the rest about ten minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pytest_spider2v.cli.catalog import write_or_check

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "benchmarks" / "figures.json"
BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"
PARTS = ("tree", "reset", "step", "video", "memory", "suite", "dabench", "cluster", "cluster_suite", "integrity",
         "mind2web", "reports", "startup")
#: The Swarm lab, and how many DABench questions its figure runs (each node has room for one).
LAB = ROOT / "scripts" / "swarm-lab.sh"
CLUSTER_QUESTIONS = 24
CLUSTER_WORKERS = 6
#: The suite on the lab: one worker more than the three nodes have room for, so none idles.
CLUSTER_SUITE_WORKERS = 4
#: The InfiAgent-DABench dev set: beside the checkout, or where SPIDER2V_SHARED says.
DABENCH = Path(os.environ.get("SPIDER2V_SHARED") or ROOT.parent / "shared") / "infiagent-dabench"
#: The task whose desktop the tree and step figures are taken on, and the Chromium page task.
CALC_TASK = ROOT / "tasks/calc/product-revenue-column/task.json"
CHROMIUM_TASK = ROOT / "tasks/chromium/workshop-registration-form/task.json"
#: One project task per image family, for the reset figures.
FAMILY_TASKS = {
    "desktop": CALC_TASK,
    "databases": ROOT / "tasks/postgresql/import-contacts-csv/task.json",
    "jupyter": ROOT / "tasks/jupyter/region-sales-pivot/task.json",
    "airflow": ROOT / "tasks/airflow/low-stock-variable/task.json",
    "dagster": ROOT / "tasks/dagster/materialize-sales-group/task.json",
    "superset": ROOT / "tasks/superset/revenue-by-region-bar/task.json",
    "servicedesk": ROOT / "tasks/request-tracker/resolve-printer-ticket/task.json",
}
#: (figure, comparison, bound, unit): "le" the p50 must be at most the bound, "ge" at least.
TARGETS: dict[str, tuple[str, float, str]] = {
    "accessibility_tree.calc.fast": ("le", 0.3, "s"),
    "accessibility_tree.calc.speedup": ("ge", 15.0, "x"),
    "accessibility_tree.chromium.fast": ("le", 0.5, "s"),
    "reset.desktop.spare": ("le", 1.5, "s"),
    "step_overhead.screenshot": ("le", 0.25, "s"),
    "step_overhead.som_calc": ("le", 0.6, "s"),
    "video.step_cost_percent": ("le", 10.0, "%"),
    "suite.speedup": ("ge", 1.6, "x"),
    "idle_memory_mb.desktop": ("le", 600.0, "MB"),
    "dabench.seconds": ("le", 900.0, "s"),
    "integrity.seconds": ("le", 1.0, "s"),
    "mind2web.collect": ("le", 30.0, "s"),
    "reports.compare": ("le", 10.0, "s"),
    "startup.ratio": ("le", 4.0, "x"),
}
#: The reports figure's runs: the paper's 494 tasks, each run three times (--repeat 3).
REPORT_TASKS, REPORT_REPEATS = 494, 3
#: The start-up figure: samples of each command, and the bare import it is measured against.
STARTUP_SAMPLES = 7
BARE_IMPORT = "import pytest, xdist, pytest_html"
#: The Mind2Web figure's file: about the card's three test splits (6,400 steps), pages of a size
#: that makes the HTML columns dominate the file, as on the hub.
MIND2WEB_TASKS, MIND2WEB_STEPS, MIND2WEB_PAGE_KB = 1070, 6, 40


# -- measuring ------------------------------------------------------------------------------------

def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[0] if len(ordered) == 1 else statistics.quantiles(ordered, n=20, method="inclusive")[18]
    return {"p50": round(statistics.median(ordered), 4), "p95": round(p95, 4),
            "min": round(ordered[0], 4), "max": round(ordered[-1], 4), "n": len(ordered)}


def timed(fn: Callable[[], Any]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


class Bench:
    """A provider of this process, and task desktops set up as a run sets them up."""

    def __init__(self) -> None:
        from pytest_spider2v.environments.provider import owner_token
        from pytest_spider2v.registry import load_extensions

        load_extensions()  # the setup steps the tasks name, and the providers
        self.owner = owner_token()
        self.cache = Path(tempfile.mkdtemp(prefix="spider2v-bench-"))

    def provider(self, *, spare: bool) -> Any:
        from pytest_spider2v.registry import providers

        return providers.get("docker")(owner=self.owner, worker="bench", spare=spare)

    @contextmanager
    def desktop(self, task_file: Path, provider: Any) -> Iterator[Any]:
        """The task's environment after its setup and first settled observation."""
        from pytest_spider2v.run.episode import first_observation
        from pytest_spider2v.run.setup_steps import run_steps
        from pytest_spider2v.run.task_context import TaskContext
        from pytest_spider2v.tasks.loading import load_tasks

        task = load_tasks(task_file)[0]
        env = provider.acquire(task.spec.snapshot)
        try:
            run_steps(TaskContext(env, task, self.cache / task.id), task.spec.config)
            first_observation(env, with_tree=False)
            yield env
        finally:
            provider.release(env)

    def reset_seconds(self, task_file: Path, provider: Any) -> float:
        started = time.perf_counter()
        with self.desktop(task_file, provider):
            return time.perf_counter() - started


#: The desktops the tree figures are taken on: name, task, and the guest process whose CPU time
#: a walk costs (LibreOffice answers every question on one thread, so its CPU seconds per walk
#: are the floor under the walk's time), or None.
TREE_DESKTOPS = (("calc", CALC_TASK, "soffice.bin"), ("chromium", CHROMIUM_TASK, None))


def process_cpu_seconds(env: Any, name: str) -> float:
    """User plus system CPU seconds the guest's oldest process named ``name`` has used."""
    out = env.execute(f"cat /proc/$(pgrep -o -x {name})/stat; getconf CLK_TCK", shell=True).stdout.split("\n")
    fields = out[0].rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / int(out[1])


def tree_figures(bench: Bench, repeat: int) -> dict[str, Any]:
    """Fast and naive walks taken alternately on the same desktop; on Calc, also LibreOffice's CPU
    time per walk (read between walks, outside the timed part; see :data:`TREE_DESKTOPS`)."""
    from tests.support.trees import differences, node_count

    provider = bench.provider(spare=False)
    figures: dict[str, Any] = {}
    try:
        for name, task_file, process in TREE_DESKTOPS:
            with bench.desktop(task_file, provider) as env:
                samples: dict[str, list[float]] = {"fast": [], "naive": []}
                cpu: dict[str, list[float]] = {"fast": [], "naive": []}
                for _ in range(repeat):
                    for walk in ("fast", "naive"):
                        before = process_cpu_seconds(env, process) if process else 0.0
                        samples[walk].append(timed(lambda: env.accessibility_tree(walk=walk)))
                        if process:
                            cpu[walk].append(process_cpu_seconds(env, process) - before)
                tree, baseline = env.accessibility_tree(), env.accessibility_tree(walk="naive")
                figures[name] = {
                    "fast": summary(samples["fast"]), "naive": summary(samples["naive"]),
                    "speedup": round(statistics.median(samples["naive"]) / statistics.median(samples["fast"]), 1),
                    "nodes": node_count(tree), "equal": not differences(tree, baseline, limit=1),
                    "task": _relative(task_file),
                }
                if process:
                    figures[name]["application_cpu"] = {walk: summary(values) for walk, values in cpu.items()}
    finally:
        provider.close()
    return figures


def reset_figures(bench: Bench, repeat: int) -> dict[str, Any]:
    """Per family: resets with a warm spare (the first, which has none, is left out) and without."""
    figures: dict[str, Any] = {}
    for family, task_file in FAMILY_TASKS.items():
        samples: dict[str, list[float]] = {}
        for mode, spare in (("spare", True), ("no_spare", False)):
            provider = bench.provider(spare=spare)
            try:
                runs = [bench.reset_seconds(task_file, provider) for _ in range(repeat + spare)]
            finally:
                provider.close()
            samples[mode] = runs[1:] if spare else runs
        figures[family] = {mode: summary(values) for mode, values in samples.items()}
        figures[family]["task"] = _relative(task_file)
    return figures


def step_figures(bench: Bench, repeat: int) -> dict[str, Any]:
    """The harness's share of a step: execute a no-op action, then observe."""
    from pytest_spider2v.run.episode import observe

    provider = bench.provider(spare=False)
    try:
        with bench.desktop(CALC_TASK, provider) as env:
            samples: dict[str, list[float]] = {"screenshot": [], "som_calc": []}
            for _ in range(repeat):
                for name, with_tree in (("screenshot", False), ("som_calc", True)):
                    samples[name].append(timed(lambda: (env.run_python("pyautogui.position()"),
                                                        observe(env, with_tree))))
    finally:
        provider.close()
    return {name: summary(values) for name, values in samples.items()}


#: Steps per batch of the video figures, and the pause after starting the recorder before a batch
#: (ffmpeg's start-up happens once an episode, not once a step).
VIDEO_BATCH, RECORDER_WARM_UP = 5, 2.0
#: The settle time a run's step has by default (``--sleep-after-action``).
SETTLE = 0.5


def video_figures(bench: Bench, repeat: int) -> dict[str, Any]:
    """Steps with the recorder off and on, in alternating batches: the cost of recording as a
    share of the runner's whole step (the target) and of the harness's share alone."""
    from pytest_spider2v.run.episode import observe
    from pytest_spider2v.run.recording import GUEST_PATH

    samples: dict[str, list[float]] = {"step_off": [], "step_on": [], "harness_off": [], "harness_on": []}
    provider = bench.provider(spare=False)
    try:
        with bench.desktop(CALC_TASK, provider) as env:
            def harness() -> None:
                env.run_python("pyautogui.position()")
                observe(env, False)

            def step() -> None:
                env.run_python("pyautogui.position()")
                time.sleep(SETTLE)
                observe(env, False)

            for _ in range(repeat):
                for recording in (False, True):
                    if recording:
                        env.start_recording(GUEST_PATH)
                        time.sleep(RECORDER_WARM_UP)
                    mode = "on" if recording else "off"
                    for _ in range(VIDEO_BATCH):
                        samples[f"step_{mode}"].append(timed(step))
                        samples[f"harness_{mode}"].append(timed(harness))
                    if recording:
                        env.stop_recording()
    finally:
        provider.close()
    figures: dict[str, Any] = {name: summary(values) for name, values in samples.items()}
    for part in ("step", "harness"):
        off, on = statistics.median(samples[f"{part}_off"]), statistics.median(samples[f"{part}_on"])
        figures[f"{part}_cost_percent"] = round(100 * (on / off - 1), 1)
    figures["task"] = _relative(CALC_TASK)
    return figures


def memory_figures(bench: Bench) -> dict[str, float]:
    """MB in use by a fresh container of each family once it is ready and has idled for 10 s,
    as ``docker stats`` counts it (usage without the inactive page cache)."""
    import docker

    from pytest_spider2v.environments.snapshots import load_snapshots

    client = docker.from_env()
    provider = bench.provider(spare=False)
    figures: dict[str, float] = {}
    try:
        for family in sorted({s.recipe for s in load_snapshots().values()}):
            env = provider.acquire(family)
            try:
                time.sleep(10)
                stats = client.containers.get(env.name).stats(stream=False)["memory_stats"]
                cache = stats.get("stats", {})
                inactive = cache.get("total_inactive_file", cache.get("inactive_file", 0))
                figures[family] = round((stats["usage"] - inactive) / 2**20, 1)
            finally:
                provider.release(env)
    finally:
        provider.close()
    return figures


def oracle_run(target: Path | str, workers: int, *extra: str, env: dict[str, str] | None = None,
               records: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Wall time and outcome counts of ``pytest TARGET --agent oracle -n WORKERS [EXTRA...]``;
    each task's ``result.json`` is appended to ``records`` when given."""
    with tempfile.TemporaryDirectory(prefix="spider2v-bench-run-") as results:
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pytest", str(target), "--agent", "oracle", "-n", str(workers),
                               "--retries", "1", "-p", "no:cacheprovider", "-q", "--results-dir", results, *extra],
                              cwd=ROOT, capture_output=True, text=True, check=False, env={**os.environ, **(env or {})})
        wall = time.perf_counter() - started
        if records is not None:
            records += [json.loads(path.read_text()) for path in Path(results).rglob("result.json")]
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|errors?|skipped)", last)}
    return {"seconds": round(wall, 1), **counts}


def suite_figures() -> dict[str, Any]:
    """Wall time of the whole suite with the reference agent, on one worker and on two."""
    figures: dict[str, Any] = {f"n{workers}": oracle_run("tasks/", workers) for workers in (1, 2)}
    figures["speedup"] = round(figures["n1"]["seconds"] / figures["n2"]["seconds"], 2)
    return figures


def dabench_figures() -> dict[str, Any]:
    """The InfiAgent-DABench dev set with the reference agent on two workers."""
    if not DABENCH.is_dir():
        raise SystemExit(f"no InfiAgent-DABench dev set at {DABENCH} (set SPIDER2V_SHARED)")
    return oracle_run(DABENCH, 2)


def integrity_figures() -> dict[str, Any]:
    """The tamper checks' seconds per task over the suite's tasks once each, the reference agent
    at ``-n 2``; and how many of those tasks they flagged (an honest run: none)."""
    records: list[dict[str, Any]] = []
    run = oracle_run("tasks/", 2, "-m", "abstract", records=records)
    checks = [record.get("integrity") or {} for record in records]
    seconds = [float(check["seconds"]) for check in checks if check.get("checked")]
    return {"run": run, "tasks": len(records), "checked": len(seconds), "seconds": summary(seconds),
            "flagged": sum(bool(check.get("findings")) for check in checks)}


def mind2web_figures(repeat: int) -> dict[str, Any]:
    """Collection of a card-schema file of the test splits' size (p50 of ``repeat``, and the
    largest resident size a collecting process reached), then its run with the reference agent."""
    with tempfile.TemporaryDirectory(prefix="spider2v-bench-mind2web-") as folder:
        path = Path(folder) / "test-00000-of-00001.parquet"
        write_mind2web(path)
        collect, peaks = [], []
        for _ in range(repeat):
            started = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", PEAK_OF_PYTEST, str(path), "--collect-only", "-q",
                                   "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, check=True)
            collect.append(time.perf_counter() - started)
            peaks.append(float(proc.stderr.strip().splitlines()[-1].split()[-1]) / 1024)
        run = oracle_run(path, 2)
        return {"tasks": MIND2WEB_TASKS, "steps": MIND2WEB_TASKS * MIND2WEB_STEPS,
                "file_mb": round(path.stat().st_size / 2**20, 1), "collect": summary(collect),
                "collect_peak_mb": round(max(peaks), 1), "oracle": run}


#: ``python -c`` this, then pytest's arguments: pytest in a child, and the child's peak resident
#: size (KiB) on stderr. The child is forked from this small process, not from the harness, whose
#: own pages a child forked from it would count until it execs.
PEAK_OF_PYTEST = ("import resource, subprocess, sys; code = subprocess.call([sys.executable, '-m', 'pytest', "
                  "*sys.argv[1:]]); print('peak', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
                  "file=sys.stderr); sys.exit(code)")


def report_figures(repeat: int) -> dict[str, Any]:
    """``spider2v-report`` over two runs of the paper's size (494 tasks, --repeat 3: 1,482 records
    each), as a user runs it (a fresh process, imports included): show, compare with its HTML
    page (charts included), table, and merge of the first run's two halves (p50 of ``repeat``)."""
    import random

    command = [sys.executable, "-m", "pytest_spider2v.reports.command"]
    with tempfile.TemporaryDirectory(prefix="spider2v-bench-reports-") as folder:
        root = Path(folder)
        for run, rate in (("a", 0.4), ("b", 0.3)):
            write_run(root / run, rate, random.Random(run))
        for half, keep in (("half-1", lambda i: i % 2 == 0), ("half-2", lambda i: i % 2 == 1)):
            write_run(root / half, 0.4, random.Random("a"), keep)
        figures: dict[str, list[float]] = {"show": [], "compare": [], "table": [], "merge": []}
        for attempt in range(repeat):
            commands = {"show": ["show", str(root / "a")], "table": ["table", str(root / "a"), "--format", "csv"],
                        "compare": ["compare", str(root / "a"), str(root / "b"), "--html", str(root / "c.html")],
                        "merge": ["merge", str(root / "half-1"), str(root / "half-2"), "--into",
                                  str(root / f"merged-{attempt}")]}
            for name, args in commands.items():
                figures[name].append(timed(lambda: subprocess.run([*command, *args], cwd=ROOT, check=True,
                                                                  capture_output=True)))
        return {"tasks": REPORT_TASKS, "repeats": REPORT_REPEATS, **{k: summary(v) for k, v in figures.items()}}


def startup_figures(samples: int = STARTUP_SAMPLES) -> dict[str, Any]:
    """``pytest tasks/ --collect-only -q`` and a bare import of pytest and the plugins it runs
    with, taken alternately, each in a fresh process as a user runs them; and the ratio of their
    medians. Bytecode is written (``PYTHONDONTWRITEBYTECODE`` unset) and each command runs once
    before the samples, so both are timed with their caches warm, as a user's second command is."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    commands = {"bare_import": [sys.executable, "-c", BARE_IMPORT],
                "collect": [sys.executable, "-m", "pytest", "tasks/", "--collect-only", "-q"]}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for attempt in range(samples + 1):
        for name, command in commands.items():
            took = timed(lambda: subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True))
            if attempt:  # the first of each wrote the caches
                times[name].append(took)
    ratio = statistics.median(times["collect"]) / statistics.median(times["bare_import"])
    return {**{name: summary(values) for name, values in times.items()}, "ratio": round(ratio, 2)}


def write_run(folder: Path, rate: float, rng: Any, keep: Callable[[int], bool] = lambda index: True) -> None:
    """A run folder of :data:`REPORT_TASKS` tasks x :data:`REPORT_REPEATS` records and its manifest."""
    apps = ("calc", "dbt", "jupyter", "airflow", "dagster", "superset", "bigquery", "chromium")
    for index in range(REPORT_TASKS):
        for repeat in range(1, REPORT_REPEATS + 1):
            passed = rng.random() < rate
            if not keep(index):
                continue
            app = apps[index % len(apps)]
            name = f"t{index:03d}" + (f"-repeat-{repeat}" if repeat > 1 else "")
            (folder / app / name).mkdir(parents=True)
            (folder / app / name / "result.json").write_text(json.dumps({
                "task_id": f"t{index:03d}", "nodeid": f"tasks/{app}/t{index:03d}.json::t{index:03d}[{repeat}-3]",
                "app": app, "apps": [app], "category": ("data_warehousing", "data_transformation")[index % 2],
                "difficulty": ("easy", "medium", "hard")[index % 3], "interface": "gui", "variant": "verbose",
                "status": "passed" if passed else "failed", "score": 1.0 if passed else 0.0,
                "repeat": {"index": repeat, "of": REPORT_REPEATS}, "fingerprint": f"f{index}",
                "timings": {"restore": 2.0, "setup": 3.0, "reset": 6.0, "episode": 60.0, "evaluation": 2.0,
                            "total": 75.0}, "usage": {"total_tokens": 12000, "cost": 0.05}}))
    (folder / "manifest.json").write_text(json.dumps({"agent": {"name": "bench", "parameters": {}},
                                                      "settings": {"max_steps": 15}, "repeats": REPORT_REPEATS,
                                                      "errata": {"digest": "e"}, "started": "2026-01-01"}))


def write_mind2web(path: Path) -> None:
    """The benchmark's file, a row group at a time: pages of random words and screenshots of noise,
    so that it compresses as a real one does, not as repeated text."""
    import io
    import random

    import pyarrow as pa
    import pyarrow.parquet as pq
    from PIL import Image

    sys.path.insert(0, str(ROOT))
    from tests.support.mind2web import card_row

    rng = random.Random(1)
    words = ["".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 9))) for _ in range(5000)]
    splits = ("test_task", "test_website", "test_domain")

    def page(kb: int) -> str:
        return "<html><body><div>" + " ".join(rng.choices(words, k=kb * 1024 // 6)) + "</div></body></html>"

    def noise() -> bytes:
        buffer = io.BytesIO()
        Image.frombytes("RGB", (320, 200), rng.randbytes(320 * 200 * 3)).save(buffer, "JPEG", quality=70)
        return buffer.getvalue()

    writer = None
    batch: list[dict[str, Any]] = []
    for task in range(MIND2WEB_TASKS):
        for step in range(MIND2WEB_STEPS):
            row = card_row(f"task-{task:04d}", splits[task % 3], step, target=step % 21, n=21, image=noise(),
                           website=f"site{task % 125}", domain=f"domain{task % 5}", subdomain=f"sub{task % 30}")
            row["raw_html"], row["cleaned_html"] = page(MIND2WEB_PAGE_KB), page(MIND2WEB_PAGE_KB // 2)
            batch.append(row)
        if len(batch) >= 600 or task == MIND2WEB_TASKS - 1:
            table = pa.Table.from_pylist(batch)
            writer = writer or pq.ParquetWriter(path, table.schema)
            writer.write_table(table, row_group_size=100)
            batch = []
    if writer is not None:
        writer.close()


def cluster_figures() -> dict[str, Any]:
    """The oracle on :data:`CLUSTER_QUESTIONS` DABench questions on the lab, one node and three."""
    if not DABENCH.is_dir():
        raise SystemExit(f"no InfiAgent-DABench dev set at {DABENCH} (set SPIDER2V_SHARED)")
    listed = subprocess.run([sys.executable, "-m", "pytest", str(DABENCH), "--collect-only", "-q", "-p", "no:cacheprovider"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    ids = [line.split("::")[-1].split("-")[0] for line in listed if "::" in line][:CLUSTER_QUESTIONS]
    selection = ["-k", " or ".join(f"{question}-" for question in ids)]
    figures = lab_scaling(DABENCH, CLUSTER_WORKERS, selection, ["analysis"])
    return {"questions": len(ids), **figures}


def cluster_suite_figures() -> dict[str, Any]:
    """The oracle on each task of the suite once (its abstract variant) on the lab's desktops, one
    node and three."""
    from pytest_spider2v.environments.snapshots import load_snapshots

    recipes = sorted({s.recipe for s in load_snapshots().values()} - {"analysis", "clouds"})
    figures = lab_scaling(ROOT / "tasks", CLUSTER_SUITE_WORKERS, ["-m", "abstract"], recipes)
    return {"tasks": figures["nodes3"].get("passed", 0) + figures["nodes3"].get("failed", 0), **figures}


def lab_scaling(target: Path, workers: int, selection: list[str], recipes: list[str]) -> dict[str, Any]:
    """``pytest TARGET --agent oracle -n WORKERS --provider swarm`` on the lab with nodes 2 and 3
    drained (one node) and then active (three), in one run, after every node has pulled the
    images of ``recipes`` (a pull is not what is measured). The lab is made and removed here."""
    lab = dict(line.split("=", 1) for line in _lab("up").split())
    try:
        pushed = subprocess.run([sys.executable, "-m", "pytest_spider2v.cli.build", "--push",
                                 lab["SPIDER2V_SWARM_REGISTRY"], *recipes], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
        references = re.findall(r"pushed as (\S+)", pushed)
        pulls = [subprocess.Popen(["sh", "-c", " && ".join(f"docker exec spider2v-lab-node{node} docker pull -q {ref}"
                                                            for ref in references)], stdout=subprocess.DEVNULL)
                 for node in (1, 2, 3)]  # the nodes pull side by side, each its images in turn
        if any(pull.wait() for pull in pulls):
            raise SystemExit("a lab node could not pull the pushed images")
        figures: dict[str, Any] = {"workers": workers}
        for active in (1, 3):
            for node in (2, 3):
                availability = "active" if node <= active else "drain"
                subprocess.run(["docker", "exec", "spider2v-lab-node1", "docker", "node", "update", "--availability",
                                availability, f"node{node}"], check=True, capture_output=True)
            figures[f"nodes{active}"] = oracle_run(target, workers, "--provider", "swarm", *selection, env=lab)
        figures["speedup"] = round(figures["nodes1"]["seconds"] / figures["nodes3"]["seconds"], 2)
        return figures
    finally:
        _lab("down")


def _lab(command: str) -> str:
    return subprocess.run(["bash", str(LAB), command], capture_output=True, text=True, check=True).stdout


def measure(parts: list[str], repeat: int) -> dict[str, Any]:
    bench = Bench()
    figures: dict[str, Any] = {}
    if "tree" in parts:
        figures["accessibility_tree"] = tree_figures(bench, repeat)
    if "reset" in parts:
        figures["reset"] = reset_figures(bench, max(3, repeat // 2))
    if "step" in parts:
        figures["step_overhead"] = step_figures(bench, repeat)
    if "video" in parts:
        figures["video"] = video_figures(bench, repeat)
    if "memory" in parts:
        figures["idle_memory_mb"] = memory_figures(bench)
    if "suite" in parts:
        figures["suite"] = suite_figures()
    if "dabench" in parts:
        figures["dabench"] = dabench_figures()
    if "cluster" in parts:
        figures["cluster"] = cluster_figures()
    if "cluster_suite" in parts:
        figures["cluster_suite"] = cluster_suite_figures()
    if "integrity" in parts:
        figures["integrity"] = integrity_figures()
    if "mind2web" in parts:
        figures["mind2web"] = mind2web_figures(max(3, repeat // 2))
    if "reports" in parts:
        figures["reports"] = report_figures(max(3, repeat // 2))
    if "startup" in parts:
        figures["startup"] = startup_figures()
    return figures


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


# -- the file and the Figures table -------------------------------------------------------------

def lookup(figures: dict[str, Any], dotted: str) -> float | None:
    """A figure by its dotted name; a summary gives its p50."""
    value: Any = figures
    for key in dotted.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    if isinstance(value, dict):
        value = value.get("p50")
    return float(value) if isinstance(value, (int, float)) else None


def verdicts(figures: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every target with its measured figure and whether it is met (None: not measured)."""
    out = {}
    for name, (comparison, bound, unit) in TARGETS.items():
        value = lookup(figures, name)
        met = None if value is None else (value <= bound if comparison == "le" else value >= bound)
        out[name] = {"target": f"{'≤' if comparison == 'le' else '≥'} {bound:g} {unit}", "measured": value, "met": met}
    return out


def write_figures(new: dict[str, Any], path: Path = FIGURES) -> dict[str, Any]:
    """Merge the parts just measured into the file, with the machine, the date and the targets."""
    data = json.loads(path.read_text()) if path.exists() else {}
    figures = {**data.get("figures", {}), **new}
    measured_at = {**data.get("measured_at", {}), **{part: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                                                      for part in new}}
    data = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
            "measured_at": measured_at, "figures": figures, "targets": verdicts(figures)}
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def _seconds(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("p50")
    return "–" if value is None else f"{value:.2f} s"


def _run(figures: dict[str, Any]) -> str:
    """An oracle run's wall time and passed count, as the table shows them."""
    return f"{figures['seconds'] / 60:.1f} min ({figures.get('passed', 0)} passed)"


def _lab_row(what: str, figures: dict[str, Any]) -> str:
    """A lab-scaling figure's row: WHAT with the reference agent, three nodes against one."""
    return (f"| {what}, reference agent, `-n {figures['workers']}` on the Swarm lab, three nodes | "
            f"{_run(figures['nodes3'])} | one node {_run(figures['nodes1'])}: speed-up {figures['speedup']} | |")


def table(data: dict[str, Any]) -> str:
    """The Figures page's performance table: each figure, its same-run baseline, its target."""
    f, targets = data.get("figures", {}), data.get("targets", {})

    def verdict(name: str) -> str:
        entry = targets.get(name) or {}
        met = {True: "met", False: "**not met**", None: "not measured"}[entry.get("met")]
        return f"{entry.get('target', '')}: {met}"

    rows = ["| figure (p50) | measured | baseline, same run | target |", "|---|---|---|---|"]
    for desktop in ("calc", "chromium"):
        tree = f.get("accessibility_tree", {}).get(desktop, {})
        if tree:
            rows.append(f"| accessibility tree, {desktop} task desktop ({tree.get('nodes')} nodes, "
                        f"{'equal trees' if tree.get('equal') else 'TREES DIFFER'}) | {_seconds(tree.get('fast'))} "
                        f"| naive walk {_seconds(tree.get('naive'))} ({tree.get('speedup')}× faster) "
                        f"| {verdict(f'accessibility_tree.{desktop}.fast')}"
                        + (f"; {verdict('accessibility_tree.calc.speedup')}" if desktop == "calc" else "") + " |")
            cpu = tree.get("application_cpu")
            if cpu:
                rows.append(f"| LibreOffice's own CPU time per walk of the {desktop} desktop (its one accessibility "
                            f"thread answers every question) | {_seconds(cpu.get('fast'))} | naive walk "
                            f"{_seconds(cpu.get('naive'))} | |")
    for family, reset in f.get("reset", {}).items():
        target = verdict(f"reset.{family}.spare") if f"reset.{family}.spare" in TARGETS else ""
        rows.append(f"| reset until the first settled observation, {family} ({reset['task']}) | "
                    f"{_seconds(reset.get('spare'))} | without a spare container {_seconds(reset.get('no_spare'))} | {target} |")
    step = f.get("step_overhead", {})
    if step:
        rows.append(f"| step overhead, screenshot observation | {_seconds(step.get('screenshot'))} | | "
                    f"{verdict('step_overhead.screenshot')} |")
        rows.append(f"| step overhead, `som` observation on Calc | {_seconds(step.get('som_calc'))} | | "
                    f"{verdict('step_overhead.som_calc')} |")
    video = f.get("video", {})
    if video:
        rows.append(f"| step with `--record-video` (action, 0.5 s settle, screenshot) | {_seconds(video.get('step_on'))}, "
                    f"+{video['step_cost_percent']:g} % | without {_seconds(video.get('step_off'))}; the harness's "
                    f"share alone {_seconds(video.get('harness_off'))} → {_seconds(video.get('harness_on'))} "
                    f"(+{video['harness_cost_percent']:g} %) | {verdict('video.step_cost_percent')} |")
    suite = f.get("suite", {})
    if suite:
        rows.append(f"| whole suite, reference agent, `-n 2` | {_run(suite['n2'])} | `-n 1` {_run(suite['n1'])}: "
                    f"speed-up {suite['speedup']} | {verdict('suite.speedup')} |")
    dabench = f.get("dabench", {})
    if dabench:
        rows.append(f"| InfiAgent-DABench dev set, reference agent, `-n 2` | {_run(dabench)} | | "
                    f"{verdict('dabench.seconds')} |")
    cluster = f.get("cluster", {})
    if cluster:
        rows.append(_lab_row(f"{cluster['questions']} DABench questions", cluster))
    cluster_suite = f.get("cluster_suite", {})
    if cluster_suite:
        rows.append(_lab_row(f"the suite's {cluster_suite['tasks']} tasks (abstract variant)", cluster_suite))
    integrity = f.get("integrity", {})
    if integrity:
        rows.append(f"| tamper checks per task (baseline, before and after the evaluation), the suite's "
                    f"{integrity['checked']} tasks once each, reference agent, {integrity['flagged']} flagged | "
                    f"{_seconds(integrity.get('seconds'))} (p95 {integrity['seconds']['p95']:.2f} s, max "
                    f"{integrity['seconds']['max']:.2f} s) | | {verdict('integrity.seconds')} |")
    mind2web = f.get("mind2web", {})
    if mind2web:
        rows.append(f"| collecting a Multimodal-Mind2Web file of the card's test splits' size ({mind2web['steps']:,} "
                    f"steps, {mind2web['tasks']:,} tasks, {mind2web['file_mb']:g} MB with pages and screenshots) | "
                    f"{_seconds(mind2web.get('collect'))}, at most {mind2web['collect_peak_mb']:g} MB resident | "
                    f"the same file, reference agent, `-n 2`: {_run(mind2web['oracle'])} | "
                    f"{verdict('mind2web.collect')} |")
    reports = f.get("reports", {})
    if reports:
        rows.append(f"| `spider2v-report compare` of two runs of {reports['tasks']} tasks x {reports['repeats']} repeats, "
                    f"HTML page with charts included (a fresh process) | {_seconds(reports.get('compare'))} | `show` "
                    f"{_seconds(reports.get('show'))}, `table` {_seconds(reports.get('table'))}, `merge` of two "
                    f"halves {_seconds(reports.get('merge'))} | {verdict('reports.compare')} |")
    startup = f.get("startup", {})
    if startup:
        rows.append(f"| `pytest tasks/ --collect-only`, a fresh process (start-up and collection) | "
                    f"{_seconds(startup.get('collect'))}, {startup['ratio']:g}× the bare import | bare `{BARE_IMPORT}` "
                    f"{_seconds(startup.get('bare_import'))} | {verdict('startup.ratio')} |")
    for family, mb in f.get("idle_memory_mb", {}).items():
        target = verdict(f"idle_memory_mb.{family}") if f"idle_memory_mb.{family}" in TARGETS else ""
        rows.append(f"| idle container memory, {family} | {mb:.0f} MB | | {target} |")
    machine = data.get("machine", {})
    when = ", ".join(f"{part} {day[:10]}" for part, day in sorted(data.get("measured_at", {}).items()))
    return "\n".join([f"Measured by `python benchmarks/harness.py` on {machine.get('cpus')} CPUs ({when}); "
                      "written to `benchmarks/figures.json`.", "", *rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(PARTS), help=f"parts to measure (default: all of {','.join(PARTS)})")
    parser.add_argument("--repeat", type=int, default=10, help="samples per figure (resets: half, at least 3)")
    parser.add_argument("--output", type=Path, default=FIGURES, help="the figures file (default: benchmarks/figures.json)")
    parser.add_argument("--table", action="store_true", help="print the Figures page's table from the figures file instead")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", type=Path, metavar="FILE", help="with --table: replace the table in FILE")
    group.add_argument("--check", type=Path, metavar="FILE", help="with --table: exit 1 if FILE's table is stale")
    args = parser.parse_args(argv)
    if args.table:
        generated = table(json.loads(args.output.read_text()))
        target = args.write or args.check
        if target is None:
            print(generated)
            return 0
        current = write_or_check(target, generated, check=bool(args.check), what="the figures table",
                                 command=f"python benchmarks/harness.py --table --write {target}", begin=BEGIN, end=END)
        return 0 if current else 1
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown parts {', '.join(unknown)} (choose from {', '.join(PARTS)})")
    data = write_figures(measure(parts, args.repeat), args.output)
    print(json.dumps(data["targets"], indent=2, ensure_ascii=False))
    print(f"written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # tests.support.trees: the tree comparison the e2e test uses
    raise SystemExit(main())
