"""The image's Airflow, run on an Astro project: the state the ``astro`` and ``docker`` stand-ins share.

``astro dev start`` points the image's Airflow service (``spider2v-service start airflow``:
PostgreSQL, scheduler, webserver) at the project: ``AIRFLOW_HOME`` is the project folder (as
``/usr/local/airflow`` is in the Astro Runtime image, which also stays a path to it), DAGs and
plugins come from its ``dags/`` and ``plugins/``, the webserver listens on the project's port
and the project's ``.env`` is in every process's environment. That environment is written to
:data:`ENV_FILE`, which the service scripts source, and the same environment serves
``astro dev run`` and ``docker exec``. Each Airflow process stands for one container of the
real project (``<name>_<hash>-webserver-1``, ...), so scripts that list and address the
containers find them.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .project import Project, shell_env

RUN_DIR = Path("/tmp/spider2v-airflow")
STATE_FILE = RUN_DIR / "astro.json"
ENV_FILE = RUN_DIR / "astro.env"
#: /usr/local/airflow links here; this links to the running project.
CURRENT = RUN_DIR / "project"
AIRFLOW_CONFIG = "/home/user/airflow/airflow.cfg"
WEBSERVER_CONFIG = "/home/user/airflow/webserver_config.py"
SERVICE_LOG = Path("/tmp/spider2v-services/airflow.log")
POSTGRES_PORT = 5432
#: component -> (image suffix, command column of `docker ps`)
COMPONENTS = {
    "webserver": ("airflow:latest", "tini -- /entrypoint bash -c 'airflow webserver'"),
    "scheduler": ("airflow:latest", "tini -- /entrypoint bash -c 'airflow scheduler'"),
    "postgres": ("postgres:15", "docker-entrypoint.sh postgres"),
}


def project_env(project: Project) -> dict[str, str]:
    """The environment of every process of the running project (the project's ``.env`` goes
    over the Airflow settings, as in the real containers, except where Airflow keeps its files)."""
    root = str(project.root.resolve())
    port = project.webserver_port
    env = {
        "AIRFLOW__CORE__DAGS_FOLDER": f"{root}/dags",
        "AIRFLOW__CORE__PLUGINS_FOLDER": f"{root}/plugins",
        "AIRFLOW__WEBSERVER__WEB_SERVER_PORT": str(port),
        "AIRFLOW__WEBSERVER__BASE_URL": f"http://localhost:{port}",
        "AIRFLOW__WEBSERVER__CONFIG_FILE": WEBSERVER_CONFIG,
    }
    env.update(project.dotenv())
    env.update({"AIRFLOW_HOME": root, "AIRFLOW_CONFIG": AIRFLOW_CONFIG})
    return env


@dataclass(frozen=True)
class State:
    """Which project the service runs (or last ran), from when, on which port."""

    project: Path
    compose_name: str
    port: int
    started: float
    stopped: float | None = None

    def to_json(self) -> str:
        data = {"project": str(self.project), "compose_name": self.compose_name, "port": self.port,
                "started": self.started, "stopped": self.stopped}
        return json.dumps(data)

    @classmethod
    def load(cls, path: Path = STATE_FILE) -> State | None:
        try:
            data = json.loads(path.read_text())
            return cls(Path(data["project"]), data["compose_name"], int(data["port"]), float(data["started"]),
                       None if data.get("stopped") is None else float(data["stopped"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None


@dataclass(frozen=True)
class Container:
    """One component of the running project, shown as the container the real CLI would run."""

    component: str
    name: str
    image: str
    command: str
    ports: str
    running: bool

    @property
    def full_id(self) -> str:
        return hashlib.sha256(self.name.encode()).hexdigest()

    @property
    def id(self) -> str:
        return self.full_id[:12]

    def matches(self, ref: str) -> bool:
        """Whether ``ref`` (a name or an ID prefix of at least one character) names it."""
        if not ref:
            return False
        return ref in (self.name, self.name.lstrip("/")) or self.full_id.startswith(ref.lower())


def containers(state: State, alive: dict[str, bool]) -> list[Container]:
    """The containers of ``state``'s project; ``alive`` says which components run."""
    result = []
    for component, (image, command) in COMPONENTS.items():
        ports = {"webserver": f"0.0.0.0:{state.port}->8080/tcp", "postgres": f"0.0.0.0:{POSTGRES_PORT}->5432/tcp"}
        full_image = image if component == "postgres" else f"{state.compose_name}/{image}"
        result.append(Container(component, f"{state.compose_name}-{component}-1", full_image, command,
                                ports.get(component, ""), alive.get(component, False)))
    return result


def find_container(items: list[Container], ref: str) -> Container | None:
    exact = [c for c in items if c.name == ref or c.id == ref or c.full_id == ref]
    if exact:
        return exact[0]
    found = [c for c in items if c.matches(ref)]
    return found[0] if len(found) == 1 else None


def pid_alive(path: Path) -> bool:
    try:
        os.kill(int(path.read_text().strip()), 0)
        return True
    except (OSError, ValueError):
        return False


def alive_components() -> dict[str, bool]:
    """Which of the service's processes run now (their pid files are the service's own)."""
    postgres = subprocess.run(["airflow-postgres", "status"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    return {
        "webserver": pid_alive(RUN_DIR / "webserver.pid"),
        "scheduler": pid_alive(RUN_DIR / "scheduler.pid"),
        "postgres": postgres,
    }


def save(project: Project) -> State:
    """Make ``project`` the one the service runs: state, environment file, /usr/local/airflow."""
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    state = State(project.root.resolve(), project.compose_name, project.webserver_port, time.time())
    ENV_FILE.write_text(shell_env(project_env(project)))
    STATE_FILE.write_text(state.to_json())
    link = RUN_DIR / ".project.tmp"
    link.unlink(missing_ok=True)
    link.symlink_to(state.project)
    link.replace(CURRENT)
    return state


def mark_stopped(state: State) -> None:
    STATE_FILE.write_text(State(state.project, state.compose_name, state.port, state.started, time.time()).to_json())


def service(action: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """``spider2v-service ACTION airflow``: the image's one way of starting and stopping Airflow."""
    return subprocess.run(["spider2v-service", action, "airflow", str(timeout)], capture_output=True, text=True)


def ago(seconds: float) -> str:
    """Docker's way of saying how long ago: ``Less than a second``, ``3 minutes``, ``About an hour``."""
    seconds = max(0, int(seconds))
    if seconds < 1:
        return "Less than a second"
    if seconds < 60:
        return f"{seconds} seconds"
    minutes = seconds // 60
    if minutes < 2:
        return "About a minute"
    if minutes < 60:
        return f"{minutes} minutes"
    hours = minutes // 60
    return "About an hour" if hours < 2 else f"{hours} hours"
