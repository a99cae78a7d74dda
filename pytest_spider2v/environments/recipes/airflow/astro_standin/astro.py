"""``astro``: the Astro CLI commands the Spider2-V Airflow tasks use, on the image's own Airflow.

Covered: ``astro dev init|start|restart|stop|kill|ps|logs|run|bash|parse|pytest``, ``astro run
DAG_ID``, ``astro config get|set`` and ``astro version``. The output scripts read is the real
CLI's (the start banner with the UI address and admin:admin, ``astro dev ps``'s table, the
config messages). What needs Astronomer's cloud (``login``, ``deploy``, ``deployment``, ...)
fails with that reason. Two differences are deliberate: nothing is built or installed (the
project's ``requirements.txt`` is checked against the image's packages, and what is missing is
reported), and no browser is opened (the task's setup steps open it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import local
from .project import (
    CONFIG,
    RUNTIME_VERSION,
    Project,
    ProjectError,
    config_get,
    config_set,
    find_root,
    import_command,
    init,
    parse_settings,
    settings_imports,
    unmet_requirements,
)

VERSION = "1.25.0"
#: Commands that act on Astronomer's cloud: they need an account this environment cannot have.
CLOUD = ("login", "logout", "deploy", "deployment", "workspace", "organization", "user", "team",
         "context", "registry", "auth", "alert", "dbt", "ide", "remote", "api")
LOCAL_ONLY = ("upgrade-test", "object", "build")
COMPONENT_FLAGS = {"scheduler": ("-s", "--scheduler"), "webserver": ("-w", "--webserver"),
                   "triggerer": ("-t", "--triggerer")}
USAGE = """astro (Spider2-V stand-in for the Astro CLI {version}, on this machine's Airflow)

  astro dev init [--name NAME] [--runtime-version V]   lay out an Astro project here
  astro dev start | restart [--no-browser]             run Airflow on this project (UI on its webserver.port)
  astro dev stop | kill | ps | logs [-f]              stop it, list its components, show its log
  astro dev run AIRFLOW_ARGS...                        an Airflow CLI command in the project's environment
  astro dev bash | parse | pytest [ARGS]              a shell, an import check, the project's tests
  astro run DAG_ID                                     run a DAG once and print each task's result
  astro config get|set [-g] KEY [VALUE]                project (or global) settings, e.g. webserver.port
  astro version
"""


@dataclass(frozen=True)
class Command:
    """A parsed command line: what to do, its positional arguments and its options."""

    action: str
    args: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)


def _parser(prog: str) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(prog=prog, add_help=True)


def _start_options(prog: str, argv: list[str]) -> dict[str, Any]:
    p = _parser(prog)
    p.add_argument("-n", "--no-browser", action="store_true")
    p.add_argument("-w", "--wait", default="1m")
    p.add_argument("-e", "--env", default=".env")
    p.add_argument("-s", "--settings-file", default="airflow_settings.yaml")
    p.add_argument("-i", "--image-name")
    for name in ("--compose-file", "--build-secrets", "--deployment-id", "--workspace-id"):
        p.add_argument(name)
    p.add_argument("--no-cache", action="store_true")
    return vars(p.parse_args(argv))


def _component(prog: str, argv: list[str], extra: dict[str, tuple[str, str]] | None = None,
               follow: bool = False) -> dict[str, Any]:
    p = _parser(prog)
    flags = {**COMPONENT_FLAGS, **(extra or {})}
    for name, (short, long) in flags.items():
        p.add_argument(short, long, dest=name, action="store_true")
    if follow:
        p.add_argument("-f", "--follow", action="store_true")
    return vars(p.parse_args(argv))


def parse(argv: list[str]) -> Command:
    """What an ``astro`` command line asks for (argparse exits with status 2 on bad flags)."""
    if not argv or argv[0] in ("-h", "--help", "help"):
        return Command("help")
    head, rest = argv[0], argv[1:]
    if head in ("version", "--version"):
        return Command("version")
    if head in CLOUD:
        return Command("cloud", [head])
    if head == "run":
        p = _parser("astro run")
        p.add_argument("dag_id")
        p.add_argument("-e", "--env", default=".env")
        p.add_argument("-s", "--settings-file", default="airflow_settings.yaml")
        p.add_argument("-d", "--dag-file")
        p.add_argument("--no-cache", action="store_true")
        p.add_argument("-v", "--verbose", action="store_true")
        opts = vars(p.parse_args(rest))
        return Command("run", [opts.pop("dag_id")], opts)
    if head == "config":
        p = _parser("astro config")
        p.add_argument("verb", choices=("get", "set"))
        p.add_argument("-g", "--global", dest="global_", action="store_true")
        p.add_argument("key")
        p.add_argument("value", nargs="?")
        opts = vars(p.parse_args(rest))
        if opts["verb"] == "set" and opts["value"] is None:
            raise ProjectError("astro config set needs a KEY and a VALUE")
        args = [opts["key"]] if opts["verb"] == "get" else [opts["key"], opts["value"]]
        return Command(f"config {opts['verb']}", args, {"global": opts["global_"]})
    if head != "dev" or not rest:
        raise ProjectError(f'unknown command "{head}" for "astro"' if head != "dev" else "astro dev needs a command")
    sub, args = rest[0], rest[1:]
    prog = f"astro dev {sub}"
    if sub == "init":
        p = _parser(prog)
        p.add_argument("-n", "--name")
        p.add_argument("-v", "--runtime-version", default=RUNTIME_VERSION)
        p.add_argument("-a", "--airflow-version")
        p.add_argument("--use-astronomer-certified", action="store_true")
        p.add_argument("--from-template")
        return Command("dev init", options=vars(p.parse_args(args)))
    if sub in ("start", "restart"):
        return Command(f"dev {sub}", options=_start_options(prog, args))
    if sub in ("stop", "kill", "ps"):
        _parser(prog).parse_args(args)
        return Command(f"dev {sub}")
    if sub == "logs":
        return Command("dev logs", options=_component(prog, args, follow=True))
    if sub == "bash":
        return Command("dev bash", options=_component(prog, args, {"postgres": ("-p", "--postgres")}))
    if sub in ("run", "pytest"):
        return Command(f"dev {sub}", args)
    if sub == "parse":
        p = _parser(prog)
        p.add_argument("-e", "--env", default=".env")
        p.add_argument("-i", "--image-name")
        return Command("dev parse", options=vars(p.parse_args(args)))
    if sub in LOCAL_ONLY:
        raise ProjectError(f"astro dev {sub} is not available in this environment (it builds or compares Docker images)")
    raise ProjectError(f'unknown command "{sub}" for "astro dev"')


# ---- what each command does -------------------------------------------------------------------


def ask(question: str) -> bool:
    """A y/n question on the terminal; end of input means no."""
    print(question, end="", flush=True)
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError):
        return False
    if not answer.endswith("\n") or not sys.stdin.isatty():
        print()  # a terminal echoed the answer and its newline; a pipe did not
    return answer.strip().lower() in ("y", "yes")


def dev_init(cwd: Path, options: dict[str, Any]) -> int:
    runtime = options["runtime_version"]
    print("Initializing Astro project")
    print(f"Pulling Airflow development files from Astro Runtime {runtime}")
    answered: list[bool] = []

    def confirm(question: str) -> bool:
        answered.append(ask(question))
        return answered[-1]

    init(cwd, confirm, name=options.get("name"), runtime_version=runtime)
    if answered and not answered[-1]:
        print("Canceling project initialization...")
        return 0
    print(f"Initialized empty Astro project in {cwd}")
    return 0


def running_here(project: Project) -> tuple[local.State | None, dict[str, bool]]:
    """The saved state when it is this project's, and which components run."""
    state = local.State.load()
    alive = local.alive_components()
    if state is None or state.project != project.root.resolve():
        return None, alive
    return state, alive


def airflow_env(project: Project) -> dict[str, str]:
    return {**os.environ, **local.project_env(project)}


def check_build_inputs(project: Project) -> None:
    """Say what the real build would add that is not here: another base image, packages the
    image lacks (nothing is installed: the environment is the same with or without a network)."""
    image = project.base_image()
    if project.image_paths():
        links = ", ".join(f"{rel} -> {target}" for rel, target in project.image_paths().items())
        print(f"Note: the Dockerfile's image {image} is this machine's own Astro Runtime image; what it adds is "
              f"linked into the project ({links}).")
    elif image and "astro-runtime" not in image:
        print(f"Note: the Dockerfile's image {image} is not built here; the project runs on this machine's "
              "Airflow and its installed packages.")
    missing, other = unmet_requirements(project.requirements())
    for line in other:
        print(f"Note: requirement {line}: the installed version is used.")
    for line in missing:
        print(f"Warning: requirement {line} is not installed in this environment; DAGs that import it fail.")


def import_settings(project: Project, settings_file: str) -> None:
    """Add the connections, variables and pools of ``airflow_settings.yaml`` to Airflow."""
    docs = settings_imports(parse_settings(project.root / settings_file))
    env = airflow_env(project)
    for kind, doc in docs.items():
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(doc, handle)
        try:
            result = subprocess.run(import_command(kind, Path(handle.name)), env=env, cwd=project.root,
                                    capture_output=True, text=True)
        finally:
            os.unlink(handle.name)
        if result.returncode != 0:
            tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
            print(f"Warning: importing {kind} from {settings_file} failed: {tail[0]}")
        else:
            print(f"Added {kind} from {settings_file}: {', '.join(doc)}")


def banner(project: Project) -> str:
    return (
        "\nProject is running! All components are now available.\n\n"
        f"Airflow Webserver: http://localhost:{project.webserver_port}\n"
        f"Postgres Database: localhost:{local.POSTGRES_PORT}/airflow\n"
        "The default Airflow UI credentials are: admin:admin\n"
        "The default Postgres DB credentials are: user (local socket, no password)\n"
    )


def dev_start(cwd: Path, options: dict[str, Any], restart: bool = False) -> int:
    project = Project(find_root(cwd))
    state, alive = running_here(project)
    if not restart and state is not None and alive["webserver"] and alive["scheduler"]:
        raise ProjectError("cannot start, project already running")
    check_build_inputs(project)
    project.link_image_paths()
    if alive["webserver"] or alive["scheduler"]:
        local.service("stop")
    local.save(project)
    print("Airflow is starting up! This might take a few minutes…", flush=True)
    result = local.service("start")
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise ProjectError(f"error building, (re)creating or starting project containers (log: {local.SERVICE_LOG})")
    import_settings(project, options.get("settings_file") or "airflow_settings.yaml")
    print(banner(project), end="")
    return 0


def dev_stop(cwd: Path) -> int:
    project = Project(find_root(cwd))
    state, alive = running_here(project)
    if state is not None and (alive["webserver"] or alive["scheduler"]):
        local.service("stop")
        local.mark_stopped(state)
    return 0


def ps_table(rows: list[tuple[str, str, str]]) -> str:
    header = ("Name", "State", "Ports")
    width = max([len(header[0]), *(len(r[0]) for r in rows)]) + 8
    lines = [f"{header[0]:<{width}}{header[1]:<16}{header[2]}"]
    lines += [f"{name:<{width}}{state:<16}{ports}".rstrip() for name, state, ports in rows]
    return "\n".join(lines) + "\n"


def dev_ps(cwd: Path) -> int:
    project = Project(find_root(cwd))
    state, alive = running_here(project)
    rows = []
    if state is not None:
        for c in local.containers(state, alive):
            port = {"webserver": str(state.port), "postgres": str(local.POSTGRES_PORT)}.get(c.component, "")
            rows.append((c.name, "running" if c.running else "exited", port))
    print(ps_table(rows), end="")
    return 0


def require_running(project: Project) -> None:
    state, alive = running_here(project)
    if state is None or not (alive["scheduler"] or alive["webserver"]):
        raise ProjectError("cannot exec, project not running; start it with 'astro dev start'")


def dev_exec(cwd: Path, command: list[str]) -> int:
    """``astro dev run`` and ``astro dev bash``: a command in the scheduler's environment."""
    project = Project(find_root(cwd))
    require_running(project)
    os.chdir(project.root)
    os.execvpe(command[0], command, airflow_env(project))
    return 1  # not reached


def dev_logs(cwd: Path, options: dict[str, Any]) -> int:
    find_root(cwd)
    if not local.SERVICE_LOG.exists():
        raise ProjectError("cannot view logs, project not running")
    command = ["tail", "-n", "+1", *(["-f"] if options.get("follow") else []), str(local.SERVICE_LOG)]
    os.execvp(command[0], command)
    return 1  # not reached


PARSE_CHECK = """
import os, sys
from airflow.models import DagBag
bag = DagBag(os.environ["AIRFLOW__CORE__DAGS_FOLDER"], include_examples=False)
for path, error in bag.import_errors.items():
    print(f"Import error in {path}:\\n{error}")
print(f"{len(bag.dags)} DAGs parsed, {len(bag.import_errors)} import errors")
sys.exit(1 if bag.import_errors else 0)
"""


def dev_parse(cwd: Path) -> int:
    project = Project(find_root(cwd))
    return subprocess.run([sys.executable, "-c", PARSE_CHECK], env=airflow_env(project), cwd=project.root).returncode


def dev_pytest(cwd: Path, args: list[str]) -> int:
    project = Project(find_root(cwd))
    return subprocess.run([sys.executable, "-m", "pytest", *(args or ["tests"])], env=airflow_env(project),
                          cwd=project.root).returncode


def run_dag(cwd: Path, dag_id: str) -> int:
    project = Project(find_root(cwd))
    subprocess.run(["airflow-postgres", "start"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = airflow_env(project)
    package_parent = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "astro_standin.run_dag", dag_id], env=env, cwd=project.root).returncode


def config_path(cwd: Path, global_: bool) -> Path:
    return Path.home() / CONFIG if global_ else find_root(cwd) / CONFIG


def execute(command: Command, cwd: Path) -> int:
    action, opts = command.action, command.options
    if action == "help":
        print(USAGE.format(version=VERSION), end="")
        return 0
    if action == "version":
        print(f"Astro CLI Version: {VERSION}")
        return 0
    if action == "cloud":
        raise ProjectError(f"astro {command.args[0]} needs an Astro account on Astronomer's cloud; "
                           "this environment is offline and has none")
    if action == "config get":
        value = config_get(config_path(cwd, opts["global"]), command.args[0])
        if value is None:
            raise ProjectError("Config does not exist, check your config key")
        print(value)
        return 0
    if action == "config set":
        key, value = command.args
        config_set(config_path(cwd, opts["global"]), key, value)
        print(f"Setting {key} to {value} successfully")
        return 0
    if action == "run":
        return run_dag(cwd, command.args[0])
    if action == "dev init":
        return dev_init(cwd, opts)
    if action in ("dev start", "dev restart"):
        return dev_start(cwd, opts, restart=action == "dev restart")
    if action in ("dev stop", "dev kill"):
        return dev_stop(cwd)
    if action == "dev ps":
        return dev_ps(cwd)
    if action == "dev logs":
        return dev_logs(cwd, opts)
    if action == "dev run":
        return dev_exec(cwd, ["airflow", *command.args])
    if action == "dev bash":
        return dev_exec(cwd, ["bash"])
    if action == "dev parse":
        return dev_parse(cwd)
    if action == "dev pytest":
        return dev_pytest(cwd, command.args)
    raise ProjectError(f"unknown command {action!r}")


def main(argv: list[str] | None = None) -> int:
    try:
        return execute(parse(sys.argv[1:] if argv is None else argv), Path.cwd())
    except ProjectError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
