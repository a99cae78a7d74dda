#!/usr/bin/python3
"""``docker``: the Docker commands the Spider2-V Superset tasks use, on the image's own Superset.

The original tasks start Superset 3.1.1 with ``docker compose -f docker-compose-image-tag.yml
up --detach`` in ``~/projects/superset`` (containers ``superset_app``, ``superset_db``,
``superset_init``, ...), wait for ``Init Step 4/4`` in ``docker compose logs``, then load SQL
with ``docker cp FILE superset_db:/FILE`` and ``docker exec superset_db psql -U superset -f
/FILE``. Installed as ``/usr/local/bin/docker`` in the superset image only, this stand-in gives
those commands the same effect on local processes:

* ``superset_db`` is the image's PostgreSQL (``spider2v-service start superset-db``): role and
  database ``superset``, password ``superset``, on port 5432; ``db`` and the containers' other
  names resolve to this machine (added to ``/etc/hosts``), so the connection string the tasks
  register, ``postgresql://superset:superset@db:5432/superset``, works as written;
* ``superset_app`` is the image's Superset (``spider2v-service start superset``) on port 8088
  with admin/admin; ``superset_init`` writes the four ``Init Step`` lines once it answers
  (migrations, admin and roles were done when the image was built; examples need the internet
  and are not loaded);
* ``superset_cache`` (Redis) and the Celery workers are not needed by anything the tasks do and
  are not run.

``compose up`` waits until Superset answers, also with ``--detach`` (the real one returns when
the containers start; the tasks then poll the log), and without it follows the log until
interrupted, then stops, as Compose does. A container's files (``docker cp``) live under
:data:`STATE_DIR`, and ``docker exec`` passes a path argument there when the file was copied
in. Anything else fails naming what is supported, so a script never silently half-works.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

STATE_DIR = Path(os.environ.get("SPIDER2V_DOCKER_STATE", "/tmp/spider2v-docker"))
SERVICE_LOG_DIR = Path("/tmp/spider2v-services")
HOSTS_FILE = Path("/etc/hosts")
COMPOSE_DEFAULTS = ("compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml")
VERSION = "Docker version 24.0.7 (Spider2-V stand-in: Superset's containers are local processes)"
SHIM = "docker (Spider2-V stand-in)"


@dataclass(frozen=True)
class Container:
    """One container of the Superset project, played by a service of the image."""

    name: str
    compose_service: str
    image: str
    command: str
    ports: str
    #: the image's service that plays it (``spider2v-service start NAME``)
    service: str
    #: environment of ``docker exec`` in this container
    exec_env: dict[str, str] = field(default_factory=dict)


CONTAINERS = (
    Container("superset_db", "db", "postgres:15", "docker-entrypoint.sh postgres", "127.0.0.1:5432->5432/tcp",
              service="superset-db",
              exec_env={"PGHOST": "/var/run/postgresql", "PGUSER": "superset", "PGPASSWORD": "superset"}),
    Container("superset_app", "superset", "apache/superset:3.1.1", "/app/docker/docker-bootstrap.sh app-gunicorn",
              "0.0.0.0:8088->8088/tcp", service="superset",
              exec_env={"PATH": "/opt/superset/bin:/usr/local/bin:/usr/bin:/bin",
                        "SUPERSET_CONFIG_PATH": "/opt/superset/superset_config.py", "FLASK_APP": "superset"}),
)
BY_NAME = {c.name: c for c in CONTAINERS} | {c.compose_service: c for c in CONTAINERS}
#: host names the containers had on the compose network
HOST_ALIASES = ("db", "superset_db", "superset", "superset_app", "redis", "superset_cache")
INIT_STEPS = (
    "Init Step 1/4 [Starting] -- Applying DB migrations",
    "Init Step 1/4 [Complete] -- Applying DB migrations (done when this image was built)",
    "Init Step 2/4 [Starting] -- Setting up admin user ( admin / admin )",
    "Init Step 2/4 [Complete] -- Setting up admin user",
    "Init Step 3/4 [Starting] -- Setting up roles and perms",
    "Init Step 3/4 [Complete] -- Setting up roles and perms",
    "Init Step 4/4 [Starting] -- Loading examples",
    "Init Step 4/4 [Complete] -- Loading examples (skipped: they need the internet)",
)
USAGE = f"""{SHIM}: Superset's containers, played by this machine's Superset and PostgreSQL

  docker compose [-f FILE] up [-d|--detach]   start superset_db (PostgreSQL :5432) and superset_app (:8088)
  docker compose [-f FILE] down | stop        stop them
  docker compose [-f FILE] restart | ps | logs [-f] | build | pull
  docker ps [-a]                              the running containers
  docker cp SRC CONTAINER:DEST | CONTAINER:SRC DEST
  docker exec [-i] [-t] [-e K=V] [-w DIR] CONTAINER COMMAND...
  docker logs [-f] CONTAINER
"""


class DockerError(Exception):
    """A command this stand-in refuses, with the message the user sees."""


# -- services ------------------------------------------------------------------------------------
def service(action: str, name: str) -> bool:
    """``spider2v-service ACTION NAME``: True when it succeeded (start waits until ready)."""
    return subprocess.run(["spider2v-service", action, name], stdout=sys.stderr).returncode == 0


def running(container: Container) -> bool:
    return subprocess.run(
        ["spider2v-service", "status", container.service], capture_output=True).returncode == 0


def missing_aliases(hosts_text: str) -> list[str]:
    """The container host names that ``/etc/hosts`` does not name yet."""
    named = {word for line in hosts_text.splitlines() for word in line.split("#", 1)[0].split()[1:]}
    return [alias for alias in HOST_ALIASES if alias not in named]


def add_host_aliases() -> None:
    """Point the containers' host names at this machine (root owns /etc/hosts: sudo)."""
    hosts = HOSTS_FILE
    missing = missing_aliases(hosts.read_text() if hosts.exists() else "")
    if not missing:
        return
    line = "127.0.0.1\t" + " ".join(missing) + "\t# Superset's containers (docker stand-in)\n"
    if os.access(hosts, os.W_OK):
        with hosts.open("a") as handle:
            handle.write(line)
        return
    subprocess.run(["sudo", "-n", "tee", "-a", str(hosts)], input=line, text=True, stdout=subprocess.DEVNULL,
                   check=True)


# -- compose -------------------------------------------------------------------------------------
def compose_log() -> Path:
    return STATE_DIR / "compose.log"


def log_sources() -> list[tuple[str, Path]]:
    """(prefix, file) of every log ``docker compose logs`` shows, init steps first."""
    sources = [("superset_init", compose_log())]
    sources += [(c.name, SERVICE_LOG_DIR / f"{c.service}.log") for c in CONTAINERS]
    return sources


def prefixed(prefix: str, text: str) -> str:
    return "".join(f"{prefix:<14}| {line}\n" for line in text.splitlines())


def find_compose_file(files: list[str], cwd: Path) -> Path:
    """The compose file that ``-f`` names, or the default one in ``cwd`` (as Compose looks)."""
    if files:
        path = cwd / files[0]
        if not path.is_file():
            raise DockerError(f"open {path}: no such file or directory")
        return path
    for name in COMPOSE_DEFAULTS:
        if (cwd / name).is_file():
            return cwd / name
    raise DockerError("no configuration file provided: not found")


def compose_up(detach: bool) -> int:
    add_host_aliases()
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    for container in CONTAINERS:
        print(f" Container {container.name}  Starting", flush=True)
        if not service("start", container.service):
            raise DockerError(f"container {container.name} did not start (see {SERVICE_LOG_DIR}/{container.service}.log)")
        print(f" Container {container.name}  Started", flush=True)
    if "Init Step 4/4 [Complete]" not in (compose_log().read_text() if compose_log().exists() else ""):
        with compose_log().open("a") as handle:
            handle.write("".join(step + "\n" for step in INIT_STEPS))
    print(" Container superset_init  Exited (0)", flush=True)
    if detach:
        return 0
    print("Attaching to " + ", ".join(name for name, _ in log_sources()), flush=True)
    stop = follow_logs()
    print("Gracefully stopping... (press Ctrl+C again to force)", flush=True)
    compose_stop("Stopped")
    return 130 if stop == signal.SIGINT else 0


def compose_stop(verb: str) -> int:
    for container in reversed(CONTAINERS):
        service("stop", container.service)
        print(f" Container {container.name}  {verb}", flush=True)
    return 0


def compose_logs(follow: bool) -> int:
    for name, path in log_sources():
        if path.exists():
            sys.stdout.write(prefixed(name, path.read_text(errors="replace")))
    sys.stdout.flush()
    if follow:
        follow_logs(from_end=True)
    return 0


def follow_logs(from_end: bool = False) -> int:
    """Print new lines of every log until SIGINT or SIGTERM; returns the signal."""
    got: list[int] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda number, _frame: got.append(number))
    offsets = {path: (path.stat().st_size if from_end and path.exists() else 0) for _, path in log_sources()}
    while not got:
        for name, path in log_sources():
            if path.exists() and path.stat().st_size > offsets[path]:
                with path.open(errors="replace") as handle:
                    handle.seek(offsets[path])
                    chunk = handle.read()
                    offsets[path] = handle.tell()
                sys.stdout.write(prefixed(name, chunk))
                sys.stdout.flush()
        time.sleep(0.5)
    return got[0]


def compose_ps() -> int:
    print(f"{'NAME':<16}{'IMAGE':<24}{'SERVICE':<10}{'STATUS':<10}PORTS")
    for c in CONTAINERS:
        if running(c):
            print(f"{c.name:<16}{c.image:<24}{c.compose_service:<10}{'Up':<10}{c.ports}")
    return 0


def compose(args: list[str], cwd: Path) -> int:
    files: list[str] = []
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-f", "--file", "-p", "--project-name", "--env-file", "--profile") and args:
            value = args.pop(0)
            if option in ("-f", "--file"):
                files.append(value)
        elif option.startswith("--file="):
            files.append(option.split("=", 1)[1])
    if not args:
        raise DockerError("usage: docker compose [-f FILE] up|down|stop|restart|ps|logs|build|pull")
    command, options = args[0], args[1:]
    if command == "version":
        print("Docker Compose version v2.21.0 (Spider2-V stand-in)")
        return 0
    find_compose_file(files, cwd)
    if command in ("up", "start"):
        return compose_up(detach=command == "start" or bool({"-d", "--detach"} & set(options)))
    if command in ("down", "stop", "kill", "rm"):
        return compose_stop("Removed" if command in ("down", "rm") else "Stopped")
    if command == "restart":
        compose_stop("Stopped")
        return compose_up(detach=True)
    if command == "ps":
        return compose_ps()
    if command == "logs":
        return compose_logs(follow=bool({"-f", "--follow"} & set(options)))
    if command in ("build", "pull"):
        print(f"{SHIM}: the images are part of this desktop; nothing to {command}")
        return 0
    raise DockerError(f"'docker compose {command}' is not supported here")


# -- containers ----------------------------------------------------------------------------------
def container_named(name: str) -> Container:
    if name not in BY_NAME:
        raise DockerError(f"Error response from daemon: No such container: {name}")
    return BY_NAME[name]


def container_path(container: str, path: str) -> Path:
    """Where a path inside ``container`` is kept on this machine."""
    return STATE_DIR / "fs" / container / path.lstrip("/")


def copy(source: str, dest: str) -> int:
    """``docker cp``: exactly one side is ``CONTAINER:PATH``."""
    if ":" in dest and ":" not in source:
        name, inside = dest.split(":", 1)
        target = container_path(container_named(name).name, inside)
        if inside.endswith("/"):
            target = target / Path(source).name
        target.parent.mkdir(parents=True, exist_ok=True)
        copy_any(Path(source), target)
        return 0
    if ":" in source and ":" not in dest:
        name, inside = source.split(":", 1)
        kept = container_path(container_named(name).name, inside)
        copy_any(kept if kept.exists() else Path(inside), Path(dest))
        return 0
    raise DockerError("copying between two containers or two host paths is not supported")


def copy_any(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target / source.name if target.is_dir() else target, dirs_exist_ok=True)
    elif source.exists():
        shutil.copy2(source, target)
    else:
        raise DockerError(f"lstat {source}: no such file or directory")


def exec_argv(container: Container, argv: list[str]) -> list[str]:
    """``argv`` with each absolute path that was copied into the container pointing at its copy."""
    return [str(container_path(container.name, arg)) if arg.startswith("/") and
            container_path(container.name, arg).exists() else arg for arg in argv]


def docker_exec(args: list[str]) -> int:
    env = dict(os.environ)
    workdir: str | None = None
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-e", "--env") and args:
            key, _, value = args.pop(0).partition("=")
            env[key] = value
        elif option in ("-w", "--workdir", "-u", "--user") and args:
            value = args.pop(0)
            workdir = value if option in ("-w", "--workdir") else workdir  # the user is always the desktop's
        elif option.lstrip("-") and set(option.lstrip("-")) <= set("itd"):
            continue  # -i, -t, -it, -d: a terminal is given or not, as the caller's
        else:
            raise DockerError(f"'docker exec' option {option} is not supported here")
    if len(args) < 2:
        raise DockerError("usage: docker exec [OPTIONS] CONTAINER COMMAND [ARG...]")
    container = container_named(args[0])
    if not running(container):
        raise DockerError(f"Error response from daemon: container {container.name} is not running")
    env.update(container.exec_env)
    cwd = str(container_path(container.name, workdir)) if workdir and container_path(container.name, workdir).is_dir() \
        else workdir or os.environ.get("HOME", "/")
    try:
        return subprocess.run(exec_argv(container, args[1:]), env=env, cwd=cwd).returncode
    except FileNotFoundError:
        raise DockerError(f'exec: "{args[1]}": executable file not found in $PATH') from None


def docker_ps() -> int:
    print(f"{'CONTAINER ID':<14}{'IMAGE':<24}{'COMMAND':<48}{'STATUS':<10}{'PORTS':<28}NAMES")
    for c in CONTAINERS:
        if running(c):
            ident = c.name.encode().hex()[:12]
            print(f"{ident:<14}{c.image:<24}{c.command[:46]:<48}{'Up':<10}{c.ports:<28}{c.name}")
    return 0


def docker_logs(args: list[str]) -> int:
    names = [a for a in args if not a.startswith("-")]
    if len(names) != 1:
        raise DockerError("usage: docker logs [-f] CONTAINER")
    container = container_named(names[0])
    path = SERVICE_LOG_DIR / f"{container.service}.log"
    if path.exists():
        sys.stdout.write(path.read_text(errors="replace"))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command, rest = (args[0], args[1:]) if args else ("", [])
    try:
        if command == "compose":
            return compose(rest, Path.cwd())
        if command == "cp" and len([a for a in rest if not a.startswith("-")]) == 2:
            return copy(*[a for a in rest if not a.startswith("-")])
        if command == "exec":
            return docker_exec(rest)
        if command == "ps":
            return docker_ps()
        if command == "logs":
            return docker_logs(rest)
        if command in ("--version", "-v", "version"):
            print(VERSION)
            return 0
        if command in ("", "help", "--help", "-h"):
            print(USAGE)
            return 0
        raise DockerError(f"'docker {command}' is not supported here")
    except DockerError as exc:
        print(f"{SHIM}: {exc}" if "not supported" in str(exc) else str(exc), file=sys.stderr)
        if "not supported" in str(exc):
            print(USAGE, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
