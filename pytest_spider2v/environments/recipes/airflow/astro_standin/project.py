"""An Astro project folder: its layout (``astro dev init``), its settings and what it asks for.

The real CLI builds a Docker image from the folder; here the folder is run by the image's own
Airflow, so this module only reads what that needs: the project's name, its
``.astro/config.yaml`` (webserver port), ``.env``, ``requirements.txt`` and
``airflow_settings.yaml``. The files ``init`` writes are this project's own text with the
real layout, so that task scripts find every path they expect.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

#: The runtime version ``init`` writes into the Dockerfile (tasks rewrite it with sed).
RUNTIME_VERSION = "11.0.0"
CONFIG = Path(".astro") / "config.yaml"
DEFAULT_PORT = 8080


class ProjectError(Exception):
    """A user error with the message the CLI prints (``Error: ...``)."""


NOT_A_PROJECT = (
    "this is not an Astro project directory. Change to another directory or run 'astro dev init' "
    "to create a new Astro project in the current directory"
)

EXAMPLE_DAG = '''"""
## Example DAG of a new Astro project (offline)

`astro dev init` in this environment writes this DAG in place of the real template's, which
queries a web API: the environment has no internet access. It lists a few astronauts
from a table kept in this file, then greets each one with a mapped task.
"""

from airflow.decorators import dag, task
from pendulum import datetime

CREW = [
    {"name": "Ada", "craft": "ISS"},
    {"name": "Grace", "craft": "ISS"},
    {"name": "Katherine", "craft": "Tiangong"},
]


@dag(
    start_date=datetime(2024, 1, 1),
    schedule="@daily",
    catchup=False,
    doc_md=__doc__,
    default_args={"owner": "Astro", "retries": 3},
    tags=["example"],
)
def example_astronauts():
    @task
    def get_astronauts() -> list[dict]:
        return CREW

    @task
    def print_astronaut_craft(greeting: str, person_in_space: dict) -> None:
        print(f"{person_in_space['name']} is in space flying on the {person_in_space['craft']}! {greeting}")

    print_astronaut_craft.partial(greeting="Hello! :)").expand(person_in_space=get_astronauts())


example_astronauts()
'''

DAG_INTEGRITY_TEST = '''"""Every DAG of the project imports without errors (used by `astro dev parse`)."""

from airflow.models import DagBag


def test_no_import_errors():
    bag = DagBag(include_examples=False)
    assert not bag.import_errors, bag.import_errors
'''

EXAMPLE_TEST = '''"""Example tests of the project's DAGs: they import, and each has tags and retries."""

import pytest
from airflow.models import DagBag

BAG = DagBag(include_examples=False)


def test_no_import_errors():
    assert not BAG.import_errors, BAG.import_errors


@pytest.mark.parametrize("dag_id", sorted(BAG.dag_ids))
def test_dag_has_tags_and_retries(dag_id):
    dag = BAG.get_dag(dag_id)
    assert dag.tags, f"{dag_id} has no tags"
    assert dag.default_args.get("retries", 0) >= 2, f"{dag_id} retries fewer than 2 times"
'''

SETTINGS = """# Connections, pools and variables for local development only: `astro dev start` and
# `astro dev restart` add them to Airflow. Entries without an id are skipped.
airflow:
  connections:
    - conn_id:
      conn_type:
      conn_host:
      conn_schema:
      conn_login:
      conn_password:
      conn_port:
      conn_extra:
        example_extra_field: example-value
  pools:
    - pool_name:
      pool_slot:
      pool_description:
  variables:
    - variable_name:
      variable_value:
"""

README = """Astro project
=============

Created by `astro dev init`.

- `dags/`: the project's DAGs (`exampledag.py` is an example).
- `include/`, `plugins/`: extra files and Airflow plugins.
- `requirements.txt`, `packages.txt`: Python and OS packages of the project.
- `airflow_settings.yaml`: connections, pools and variables for local development.
- `tests/`: tests of the DAGs (`astro dev pytest`).

`astro dev start` runs Airflow on the project; the UI is at http://localhost:8080
(user `admin`, password `admin`).
"""


def template_files(runtime_version: str, name: str) -> dict[str, str]:
    """Relative path -> content of every file ``astro dev init`` writes."""
    return {
        ".astro/config.yaml": f"project:\n  name: {name}\n",
        ".astro/test_dag_integrity_default.py": DAG_INTEGRITY_TEST,
        ".dockerignore": "astro\n.git\n.env\nairflow_settings.yaml\nlogs/\n.venv\nairflow.db\nairflow.cfg\n",
        ".env": "",
        ".gitignore": ".git\n.env\n.DS_Store\nairflow_settings.yaml\n__pycache__/\nastro\n.venv\nairflow-webserver.pid\nwebserver_config.py\nairflow.cfg\nairflow.db\n",
        "Dockerfile": f"FROM quay.io/astronomer/astro-runtime:{runtime_version}\n",
        "README.md": README,
        "airflow_settings.yaml": SETTINGS,
        "dags/.airflowignore": "",
        "dags/exampledag.py": EXAMPLE_DAG,
        "packages.txt": "",
        "requirements.txt": "",
        "tests/dags/test_dag_example.py": EXAMPLE_TEST,
    }


TEMPLATE_DIRS = ("dags", "include", "plugins", "tests/dags", ".astro")

#: Images the Spider2-V VM had built itself, which a task's Dockerfile names in place of an Astro
#: Runtime: what each adds to the runtime's AIRFLOW_HOME, as paths linked to this machine's own
#: installation. ``my-astro:1.0`` is Astro Runtime 10.5.0 with dbt-postgres in ``dbt_venv``
#: (Astronomer's Cosmos recipe; the Cosmos tasks' Dockerfile keeps its lines, commented out);
#: here the desktop's dbt venv has dbt-postgres.
LOCAL_IMAGES: dict[str, dict[str, str]] = {
    "my-astro:1.0": {"dbt_venv": "/opt/dbt"},
}


def default_name(folder: Path) -> str:
    """The project name ``init`` writes: the folder's name, lower case, ``-`` for odd characters."""
    return re.sub(r"[^a-z0-9_-]+", "-", folder.name.lower()).strip("-") or "astro-project"


def init(folder: Path, confirm: Callable[[str], bool], name: str | None = None,
         runtime_version: str = RUNTIME_VERSION) -> list[str]:
    """Lay out an Astro project in ``folder``; returns the files written.

    As the real CLI, it asks before using a folder that is not empty, and keeps the files that
    already exist (a task's own DAGs, requirements and settings stay as they were).
    """
    if folder.exists() and any(folder.iterdir()):
        if not confirm("You are not in an empty directory. Are you sure you want to initialize a project? (y/n) "):
            return []
    for sub in TEMPLATE_DIRS:
        (folder / sub).mkdir(parents=True, exist_ok=True)
    written = []
    for rel, content in template_files(runtime_version, name or default_name(folder)).items():
        path = folder / rel
        if not path.exists():
            path.write_text(content)
            written.append(rel)
    return written


def find_root(cwd: Path) -> Path:
    """The project folder: the working directory, when it holds ``.astro/config.yaml``."""
    if not (cwd / CONFIG).is_file():
        raise ProjectError(NOT_A_PROJECT)
    return cwd


def read_config(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    return data if isinstance(data, dict) else {}


def config_get(path: Path, key: str) -> Any:
    node: Any = read_config(path)
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def config_set(path: Path, key: str, value: str) -> None:
    """Set a dotted key (``webserver.port``) in a config file, keeping the other keys."""
    if not KEY.match(key):
        raise ProjectError("Config does not exist, check your config key")
    data = read_config(path)
    node = data
    *parents, last = key.split(".")
    for part in parents:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[last] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, default_flow_style=False, sort_keys=False))


@dataclass(frozen=True)
class Project:
    """A project folder and what running it needs."""

    root: Path

    @property
    def name(self) -> str:
        configured = config_get(self.root / CONFIG, "project.name")
        return str(configured) if configured else default_name(self.root)

    @property
    def compose_name(self) -> str:
        """The prefix of its container names: the name plus a short hash of the folder."""
        digest = hashlib.sha256(str(self.root.resolve()).encode()).hexdigest()[:6]
        return f"{re.sub(r'[^a-z0-9_-]+', '', self.name.lower()) or 'astro'}_{digest}"

    @property
    def webserver_port(self) -> int:
        value = config_get(self.root / CONFIG, "webserver.port")
        try:
            return int(value) if value not in (None, "") else DEFAULT_PORT
        except (TypeError, ValueError):
            raise ProjectError(f"webserver.port in {CONFIG} is not a port number: {value!r}") from None

    def dotenv(self) -> dict[str, str]:
        return parse_dotenv(self.root / ".env")

    def requirements(self) -> list[str]:
        return parse_requirements(self.root / "requirements.txt")

    def settings(self) -> dict[str, Any]:
        return parse_settings(self.root / "airflow_settings.yaml")

    def image_paths(self) -> dict[str, str]:
        """What the Dockerfile's image adds to AIRFLOW_HOME (the project folder here), when it is
        one of :data:`LOCAL_IMAGES`: relative path -> the path on this machine that stands for it."""
        return LOCAL_IMAGES.get(self.base_image() or "", {})

    def link_image_paths(self) -> list[str]:
        """Link what the image adds into the project folder (``dbt_venv``), as the image's
        AIRFLOW_HOME has it; a path the project has already is kept. Returns the links made."""
        made = []
        for rel, target in self.image_paths().items():
            path = self.root / rel
            if path.exists() or path.is_symlink():
                continue
            path.symlink_to(target)
            made.append(rel)
        return made

    def base_image(self) -> str | None:
        path = self.root / "Dockerfile"
        if not path.is_file():
            return None
        for line in path.read_text().splitlines():
            if line.strip().upper().startswith("FROM "):
                return line.split()[1]
        return None


def parse_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines (``export`` and quotes allowed), as Docker's ``--env-file`` reads them."""
    env: dict[str, str] = {}
    if not path.is_file():
        return env
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key):
            env[key] = value
    return env


def parse_requirements(path: Path) -> list[str]:
    """The requirement lines of a ``requirements.txt`` (comments, blanks and pip options dropped)."""
    if not path.is_file():
        return []
    lines = []
    for line in path.read_text().splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith(("#", "-")):
            lines.append(line)
    return lines


def requirement_name(line: str) -> str:
    return re.split(r"[\s<>=!~;\[@]", line, maxsplit=1)[0]


def unmet_requirements(lines: list[str],
                       version_of: Callable[[str], str | None] | None = None) -> tuple[list[str], list[str]]:
    """(missing, other version): requirements not installed, and pins installed at another
    version (kept: the image's Airflow and providers are not downgraded)."""
    version_of = version_of or installed_version
    missing, other = [], []
    for line in lines:
        name = requirement_name(line)
        version = version_of(name)
        if version is None:
            missing.append(line)
        elif "==" in line and line.split("==", 1)[1].split(";")[0].strip() != version:
            other.append(f"{line} (installed: {version})")
    return missing, other


def installed_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def parse_settings(path: Path) -> dict[str, Any]:
    """The ``airflow:`` section of ``airflow_settings.yaml`` (``{}`` when absent or empty)."""
    if not path.is_file():
        return {}
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise ProjectError(f"airflow_settings.yaml is not valid YAML: {exc}") from None
    section = data.get("airflow") if isinstance(data, dict) else None
    return section if isinstance(section, dict) else {}


#: airflow_settings.yaml connection field -> Airflow connection attribute
CONNECTION_FIELDS = {
    "conn_type": "conn_type",
    "conn_host": "host",
    "conn_schema": "schema",
    "conn_login": "login",
    "conn_password": "password",
    "conn_port": "port",
    "conn_description": "description",
}


def settings_imports(settings: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The JSON documents ``airflow connections|variables|pools import`` take, per kind, for the
    entries that have an id (the template's blank entries are skipped, as the real CLI does)."""
    connections: dict[str, Any] = {}
    for item in settings.get("connections") or []:
        if not isinstance(item, dict) or not item.get("conn_id"):
            continue
        if item.get("conn_uri"):
            connections[str(item["conn_id"])] = str(item["conn_uri"])
            continue
        conn = {attr: item[key] for key, attr in CONNECTION_FIELDS.items() if item.get(key) not in (None, "")}
        if "port" in conn:
            conn["port"] = int(conn["port"])
        extra = item.get("conn_extra")
        if extra:
            conn["extra"] = extra if isinstance(extra, str) else json.dumps(extra)
        connections[str(item["conn_id"])] = conn
    variables = {
        str(item["variable_name"]): "" if item.get("variable_value") is None else str(item["variable_value"])
        for item in settings.get("variables") or []
        if isinstance(item, dict) and item.get("variable_name")
    }
    pools = {
        str(item["pool_name"]): {"slots": int(item.get("pool_slot") or 0), "description": str(item.get("pool_description") or "")}
        for item in settings.get("pools") or []
        if isinstance(item, dict) and item.get("pool_name")
    }
    kinds = {"connections": connections, "variables": variables, "pools": pools}
    return {kind: docs for kind, docs in kinds.items() if docs}


def import_command(kind: str, path: Path) -> list[str]:
    """The Airflow CLI command importing one kind of settings from a JSON file, overwriting."""
    overwrite = {"connections": ["--overwrite"], "variables": ["--action-on-existing-key", "overwrite"], "pools": []}
    return ["airflow", kind, "import", *overwrite[kind], str(path)]


def shell_env(env: dict[str, str]) -> str:
    """``KEY='value'`` lines a shell can source (``set -a; . file``)."""
    return "".join(f"{key}={shlex.quote(value)}\n" for key, value in env.items())
