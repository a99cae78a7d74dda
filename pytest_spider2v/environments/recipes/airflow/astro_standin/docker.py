"""``docker``: the Docker commands the Spider2-V Airflow tasks run against the Astro containers.

There is no Docker here: the Astro project runs on the image's own Airflow (see
:mod:`.local`), one process per container of the real project. ``docker ps`` lists those
containers in Docker's format (so ``docker ps | grep webserver | awk '{print $1}'`` finds an
ID and ``grep 8002`` the webserver's port), ``docker exec CONTAINER CMD`` runs CMD in the
project's environment (``airflow dags list-runs ...``), ``docker cp`` copies to and from the
container's paths (``/usr/local/airflow`` is the project folder) and ``docker logs`` shows
the Airflow log. Any other command fails, saying what the stand-in covers.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import local
from .project import Project, parse_dotenv

COVERED = "ps, exec, cp and logs on the Astro project's containers"
#: option -> takes a value, per command (short options may be clustered: -it, -qf NAME)
OPTIONS = {
    "ps": {"-a": False, "--all": False, "-q": False, "--quiet": False, "--no-trunc": False, "-s": False,
           "--size": False, "-l": False, "--latest": False, "-f": True, "--filter": True, "--format": True,
           "-n": True, "--last": True},
    "exec": {"-i": False, "--interactive": False, "-t": False, "--tty": False, "-d": False, "--detach": False,
             "--privileged": False, "-u": True, "--user": True, "-w": True, "--workdir": True, "-e": True,
             "--env": True, "--env-file": True, "--detach-keys": True},
    "cp": {"-a": False, "--archive": False, "-L": False, "--follow-link": False, "-q": False, "--quiet": False},
    "logs": {"-f": False, "--follow": False, "-t": False, "--timestamps": False, "--details": False,
             "-n": True, "--tail": True, "--since": True, "--until": True},
}
ALIASES = {("container", "ls"): "ps", ("container", "ps"): "ps", ("container", "exec"): "exec",
           ("container", "cp"): "cp", ("container", "logs"): "logs"}
CONTAINER_HOME = "/usr/local/airflow"


class DockerError(Exception):
    """Printed as Docker prints its errors, with exit status 1."""


@dataclass
class Invocation:
    """A command, its options (name -> values; flags hold ``[True]``) and its arguments."""

    command: str
    options: dict[str, list[str | bool]] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)

    def flag(self, *names: str) -> bool:
        return any(name in self.options for name in names)

    def values(self, *names: str) -> list[str]:
        return [v for name in names for v in self.options.get(name, []) if isinstance(v, str)]


def parse(argv: list[str]) -> Invocation:
    """Split a docker command line; options stop at the first argument (``exec``'s command
    keeps its own flags)."""
    if not argv:
        raise DockerError(f"this docker is a stand-in covering {COVERED}")
    command, rest = argv[0], argv[1:]
    if (command, rest[0] if rest else "") in ALIASES:
        command, rest = ALIASES[(command, rest[0])], rest[1:]
    if command not in OPTIONS:
        raise DockerError(f"docker {command}: not available here (this docker is a stand-in covering {COVERED})")
    known = OPTIONS[command]
    inv = Invocation(command)
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--":
            inv.args += rest[i + 1:]
            break
        if not arg.startswith("-") or arg == "-":
            inv.args.append(arg)
            if command == "exec":  # the container, then the command with its own options
                inv.args += rest[i + 1:]
                break
            i += 1
            continue
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name not in known:
                raise DockerError(f"unknown flag: {name}")
            if known[name] and not eq:
                i += 1
                if i >= len(rest):
                    raise DockerError(f"flag needs an argument: {name}")
                value = rest[i]
            inv.options.setdefault(name, []).append(value if known[name] else True)
            i += 1
            continue
        cluster = arg[1:]
        for j, char in enumerate(cluster):
            name = f"-{char}"
            if name not in known:
                raise DockerError(f"unknown shorthand flag: '{char}' in {arg}")
            if known[name]:
                value = cluster[j + 1:].lstrip("=")
                if not value:
                    i += 1
                    if i >= len(rest):
                        raise DockerError(f"flag needs an argument: '{char}' in {arg}")
                    value = rest[i]
                inv.options.setdefault(name, []).append(value)
                break
            inv.options.setdefault(name, []).append(True)
        i += 1
    return inv


# ---- docker ps ------------------------------------------------------------------------------------

HEADERS = {"ID": "CONTAINER ID", "Image": "IMAGE", "Command": "COMMAND", "CreatedAt": "CREATED AT",
           "RunningFor": "CREATED", "Status": "STATUS", "Ports": "PORTS", "Names": "NAMES", "State": "STATE",
           "Size": "SIZE", "Labels": "LABELS", "Mounts": "MOUNTS", "Networks": "NETWORKS"}
DEFAULT_FORMAT = "table {{.ID}}\t{{.Image}}\t{{.Command}}\t{{.RunningFor}}\t{{.Status}}\t{{.Ports}}\t{{.Names}}"
FIELD = re.compile(r"\{\{\s*\.(\w+)\s*\}\}")


def fields(c: local.Container, state: local.State, now: float, no_trunc: bool = False) -> dict[str, str]:
    command = c.command if no_trunc or len(c.command) <= 20 else c.command[:19] + "…"
    since_start = now - state.started
    if c.running:
        status = f"Up {local.ago(since_start)}"
    else:
        status = f"Exited (0) {local.ago(now - (state.stopped or now))} ago"
    return {
        "ID": c.full_id if no_trunc else c.id, "Image": c.image, "Command": f'"{command}"',
        "CreatedAt": time.strftime("%Y-%m-%d %H:%M:%S +0000 UTC", time.gmtime(state.started)),
        "RunningFor": f"{local.ago(since_start)} ago", "Status": status, "State": "running" if c.running else "exited",
        "Ports": c.ports if c.running else "", "Names": c.name, "Size": "0B", "Labels": "", "Mounts": "", "Networks":
        f"{state.compose_name}_default",
    }


def matches_filters(c: local.Container, filters: list[str]) -> bool:
    """Docker's rules: values of one key are alternatives, different keys must all match."""
    by_key: dict[str, list[str]] = {}
    for item in filters:
        key, _, value = item.partition("=")
        by_key.setdefault(key.strip(), []).append(value.strip())
    for key, values in by_key.items():
        if key == "name":
            ok = any(re.search(v, c.name) if _is_regex(v) else v in c.name for v in values)
        elif key == "id":
            ok = any(c.full_id.startswith(v) for v in values)
        elif key == "status":
            ok = ("running" if c.running else "exited") in values
        elif key == "ancestor":
            ok = any(v in c.image for v in values)
        else:
            raise DockerError(f"Error response from daemon: invalid filter '{key}'")
        if not ok:
            return False
    return True


def _is_regex(value: str) -> bool:
    try:
        re.compile(value)
        return True
    except re.error:
        return False


def render(template: str, rows: list[dict[str, str]]) -> str:
    """A ``--format`` Go template over the rows; ``table`` adds the header and aligns columns."""
    template = template.replace("\\t", "\t").replace("\\n", "\n")
    table = template.startswith("table")
    if table:
        template = template[len("table"):].lstrip(" ")
    lines = [FIELD.sub(lambda m: row.get(m.group(1), ""), template) for row in rows]
    if not table:
        return "".join(line + "\n" for line in lines)
    header = FIELD.sub(lambda m: HEADERS.get(m.group(1), m.group(1).upper()), template)
    cells = [line.split("\t") for line in [header, *lines]]
    widths = [max(len(row[k]) for row in cells if k < len(row)) for k in range(max(map(len, cells)))]
    out = []
    for row in cells:
        padded = [cell.ljust(widths[k] + 3) if k < len(row) - 1 else cell for k, cell in enumerate(row)]
        out.append("".join(padded).rstrip())
    return "\n".join(out) + "\n"


def ps(inv: Invocation, state: local.State | None, alive: dict[str, bool], now: float) -> str:
    if inv.args:
        raise DockerError('"docker ps" accepts no arguments.')
    items = local.containers(state, alive) if state else []
    if not inv.flag("-a", "--all"):
        items = [c for c in items if c.running]
    items = [c for c in items if matches_filters(c, inv.values("-f", "--filter"))]
    if inv.flag("-l", "--latest"):
        items = items[:1]
    if inv.values("-n", "--last"):
        items = items[: int(inv.values("-n", "--last")[-1])]
    rows = [fields(c, state, now, inv.flag("--no-trunc")) for c in items] if state else []
    if inv.flag("-q", "--quiet"):
        return "".join(row["ID"] + "\n" for row in rows)
    formats = inv.values("--format")
    return render(formats[-1] if formats else DEFAULT_FORMAT, rows)


# ---- exec, cp, logs ---------------------------------------------------------------------------------


def resolve(ref: str, state: local.State | None, alive: dict[str, bool], must_run: bool = True) -> local.Container:
    found = local.find_container(local.containers(state, alive), ref) if state else None
    if found is None:
        raise DockerError(f"Error response from daemon: No such container: {ref}")
    if must_run and not found.running:
        raise DockerError(f"Error response from daemon: container {found.full_id} is not running")
    return found


def exec_env(inv: Invocation, container: local.Container, state: local.State) -> dict[str, str]:
    env = dict(os.environ)
    if container.component == "postgres":
        env.update({"PGHOST": "/var/run/postgresql", "PGDATABASE": "airflow"})
    else:
        env.update(local.project_env(Project(state.project)))
    for path in inv.values("--env-file"):
        env.update(parse_dotenv(Path(path)))
    for item in inv.values("-e", "--env"):
        key, eq, value = item.partition("=")
        if eq:
            env[key] = value
        elif key in os.environ:
            env[key] = os.environ[key]
    return env


def container_path(path: str, state: local.State) -> str:
    """A path inside a container: relative ones start at the container's working directory,
    /usr/local/airflow, which is the project folder."""
    if not path.startswith("/"):
        return str(state.project / path)
    if path == CONTAINER_HOME or path.startswith(CONTAINER_HOME + "/"):
        return str(state.project) + path[len(CONTAINER_HOME):]
    return path


def split_ref(arg: str) -> tuple[str | None, str]:
    """``CONTAINER:PATH`` -> (container, path); a local path (``./a:b``, ``/x``) -> (None, arg)."""
    if ":" in arg and not arg.startswith((".", "/")):
        ref, path = arg.split(":", 1)
        return ref, path
    return None, arg


def cp_command(inv: Invocation, state: local.State | None, alive: dict[str, bool]) -> list[str]:
    if len(inv.args) != 2:
        raise DockerError('"docker cp" requires exactly 2 arguments.')
    paths = []
    refs = 0
    for arg in inv.args:
        ref, path = split_ref(arg)
        if ref is not None:
            refs += 1
            resolve(ref, state, alive, must_run=False)
            assert state is not None
            path = container_path(path, state)
        paths.append(path)
    if refs != 1:
        raise DockerError("copying between containers, or between two local paths, is not supported")
    return ["cp", "-R", "-L" if inv.flag("-L", "--follow-link") else "-P", "--preserve=mode,timestamps", *paths]


def logs_command(inv: Invocation, state: local.State | None, alive: dict[str, bool]) -> list[str]:
    if len(inv.args) != 1:
        raise DockerError('"docker logs" requires exactly 1 argument.')
    resolve(inv.args[0], state, alive, must_run=False)
    tail = (inv.values("-n", "--tail") or ["all"])[-1]
    return ["tail", "-n", "+1" if tail == "all" else tail, *(["-f"] if inv.flag("-f", "--follow") else []),
            str(local.SERVICE_LOG)]


def main(argv: list[str] | None = None) -> int:
    try:
        inv = parse(sys.argv[1:] if argv is None else argv)
        state = local.State.load()
        alive = local.alive_components()
        if inv.command == "ps":
            sys.stdout.write(ps(inv, state, alive, time.time()))
            return 0
        if inv.command == "exec":
            if len(inv.args) < 2:
                raise DockerError('"docker exec" requires at least 2 arguments.')
            container = resolve(inv.args[0], state, alive)
            assert state is not None
            workdir = container_path((inv.values("-w", "--workdir") or [CONTAINER_HOME])[-1], state)
            env = exec_env(inv, container, state)
            os.chdir(workdir)
            if inv.flag("-d", "--detach"):
                subprocess.Popen(inv.args[1:], env=env, start_new_session=True, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                return 0
            try:
                os.execvpe(inv.args[1], inv.args[1:], env)
            except FileNotFoundError:
                raise DockerError(f'OCI runtime exec failed: exec: "{inv.args[1]}": executable file not found in $PATH') from None
        command = cp_command(inv, state, alive) if inv.command == "cp" else logs_command(inv, state, alive)
        return subprocess.run(command).returncode
    except DockerError as exc:
        print(exc if str(exc).startswith(("Error", "OCI")) else f"docker: {exc}", file=sys.stderr)
        return 1
