"""The astro/docker stand-ins of the airflow image: argument parsing, the project folder, the
container listing scripts parse, and the state they share (no Airflow, no Docker needed)."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_spider2v.environments.recipes.airflow.astro_standin import astro, docker, local, project, run_dag
from pytest_spider2v.environments.recipes.airflow.astro_standin.project import Project, ProjectError

RECIPE = Path(project.__file__).resolve().parents[1]


# ---- the project folder -----------------------------------------------------------------------


def test_init_lays_out_the_real_project_layout(tmp_path: Path) -> None:
    folder = tmp_path / "astro-proj"
    folder.mkdir()
    written = project.init(folder, confirm=lambda q: pytest.fail("an empty folder needs no question"))
    for rel in (".astro/config.yaml", "Dockerfile", "requirements.txt", "packages.txt", "airflow_settings.yaml",
                ".env", "dags/exampledag.py", "tests/dags/test_dag_example.py", "README.md"):
        assert rel in written and (folder / rel).is_file(), rel
    for sub in ("include", "plugins", "dags"):
        assert (folder / sub).is_dir()
    assert (folder / "Dockerfile").read_text() == f"FROM quay.io/astronomer/astro-runtime:{project.RUNTIME_VERSION}\n"
    assert Project(folder).name == "astro-proj"
    compile((folder / "dags/exampledag.py").read_text(), "exampledag.py", "exec")
    assert "requests" not in (folder / "dags/exampledag.py").read_text()  # offline


def test_init_asks_in_a_folder_with_files_and_keeps_them(tmp_path: Path) -> None:
    (tmp_path / "Dockerfile").write_text("FROM quay.io/astronomer/astro-runtime:10.5.0\n")
    (tmp_path / "requirements.txt").write_text("apache-airflow-providers-sqlite\n")
    questions: list[str] = []
    assert project.init(tmp_path, confirm=lambda q: questions.append(q) or False) == []
    assert not (tmp_path / ".astro").exists() and questions and "not in an empty directory" in questions[0]
    written = project.init(tmp_path, confirm=lambda q: True)
    assert "Dockerfile" not in written and "requirements.txt" not in written and "airflow_settings.yaml" in written
    assert (tmp_path / "requirements.txt").read_text() == "apache-airflow-providers-sqlite\n"
    assert "10.5.0" in (tmp_path / "Dockerfile").read_text()


def test_config_set_and_get_nested_keys_keep_the_others(tmp_path: Path) -> None:
    path = tmp_path / ".astro" / "config.yaml"
    path.parent.mkdir()
    path.write_text("project:\n    name: weather\npostgres:\n  port: \"5431\"\n")
    project.config_set(path, "webserver.port", "8002")
    assert project.config_get(path, "webserver.port") == "8002"
    assert project.config_get(path, "project.name") == "weather"
    assert project.config_get(path, "postgres.port") == "5431"
    assert project.config_get(path, "webserver.nope") is None
    with pytest.raises(ProjectError, match="Config does not exist"):
        project.config_set(path, "bad key!", "1")


def test_project_port_name_and_container_prefix(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "Proj X", tmp_path / "b" / "Proj X"
    for folder in (a, b):
        project.init(folder, confirm=lambda q: True)
    assert Project(a).webserver_port == 8080
    project.config_set(a / project.CONFIG, "webserver.port", "8002")
    assert Project(a).webserver_port == 8002
    assert Project(a).name == "proj-x"
    assert Project(a).compose_name.startswith("proj-x_") and Project(a).compose_name != Project(b).compose_name
    assert Project(a).compose_name == Project(a).compose_name
    project.config_set(a / project.CONFIG, "webserver.port", "http")
    with pytest.raises(ProjectError, match="not a port number"):
        Project(a).webserver_port


def test_find_root_needs_the_astro_config(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="not an Astro project directory"):
        project.find_root(tmp_path)
    project.init(tmp_path, confirm=lambda q: True)
    assert project.find_root(tmp_path) == tmp_path


def test_dotenv_and_requirements(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text('# c\nMINIO_IP=10.0.0.5\nexport KEY="a b"\nQUOTED=\'x=y\'\nnot a line\n9BAD=1\n')
    assert project.parse_dotenv(tmp_path / ".env") == {"MINIO_IP": "10.0.0.5", "KEY": "a b", "QUOTED": "x=y"}
    (tmp_path / "requirements.txt").write_text(
        "# Astro Runtime includes...\napache-airflow-providers-sqlite==3.4.2\n\nastronomer-cosmos==1.0.4  # dbt\n"
        "-r other.txt\nrequests[socks]>=2\n")
    lines = project.parse_requirements(tmp_path / "requirements.txt")
    assert lines == ["apache-airflow-providers-sqlite==3.4.2", "astronomer-cosmos==1.0.4", "requests[socks]>=2"]
    installed = {"apache-airflow-providers-sqlite": "3.9.0", "requests": "2.32.0"}
    missing, other = project.unmet_requirements(lines, installed.get)
    assert missing == ["astronomer-cosmos==1.0.4"]
    assert other == ["apache-airflow-providers-sqlite==3.4.2 (installed: 3.9.0)"]


def test_the_template_settings_import_nothing() -> None:
    import yaml

    assert project.settings_imports(yaml.safe_load(project.SETTINGS)["airflow"]) == {}


def test_settings_become_airflow_import_documents() -> None:
    settings = {
        "connections": [
            {"conn_id": "http_weather_service", "conn_type": "http", "conn_host": "wttr.in", "conn_schema": "https",
             "conn_login": None, "conn_port": "443", "conn_extra": {"timeout": 5}},
            {"conn_id": "pg", "conn_uri": "postgres://user:password@172.17.0.1:5432/jaffle_shop"},
            {"conn_id": None, "conn_type": "http"},
        ],
        "variables": [{"variable_name": "city", "variable_value": "Hong Kong"}, {"variable_name": "empty"}],
        "pools": [{"pool_name": "api", "pool_slot": 2, "pool_description": "rate limit"}, {"pool_name": None}],
    }
    docs = project.settings_imports(settings)
    assert docs["connections"] == {
        "http_weather_service": {"conn_type": "http", "host": "wttr.in", "schema": "https", "port": 443,
                                 "extra": '{"timeout": 5}'},
        "pg": "postgres://user:password@172.17.0.1:5432/jaffle_shop",
    }
    assert docs["variables"] == {"city": "Hong Kong", "empty": ""}
    assert docs["pools"] == {"api": {"slots": 2, "description": "rate limit"}}
    assert project.import_command("connections", Path("/t/c.json")) == [
        "airflow", "connections", "import", "--overwrite", "/t/c.json"]
    assert project.import_command("variables", Path("v.json"))[-3:] == ["--action-on-existing-key", "overwrite", "v.json"]


def test_shell_env_survives_a_shell(tmp_path: Path) -> None:
    env = {"A": "it's a \"test\" $HOME `x`", "B": "plain", "C": ""}
    path = tmp_path / "env"
    path.write_text(project.shell_env(env))
    out = subprocess.run(["bash", "-c", f'set -a; . {path}; printf "%s\\0" "$A" "$B" "$C"'],
                         capture_output=True, text=True, check=True).stdout
    assert out.split("\0")[:3] == [env["A"], "plain", ""]


# ---- the running project's environment and containers -----------------------------------------------


def make_project(tmp_path: Path, port: str | None = None) -> Project:
    folder = tmp_path / "weather"
    project.init(folder, confirm=lambda q: True)
    if port:
        project.config_set(folder / project.CONFIG, "webserver.port", port)
    return Project(folder)


def test_project_env_points_airflow_at_the_project(tmp_path: Path) -> None:
    proj = make_project(tmp_path, "8002")
    (proj.root / ".env").write_text("AIRFLOW_HOME=/elsewhere\nAIRFLOW__CORE__LOAD_EXAMPLES=True\nMINIO_IP=1.2.3.4\n")
    env = local.project_env(proj)
    root = str(proj.root.resolve())
    assert env["AIRFLOW_HOME"] == root and env["AIRFLOW__CORE__DAGS_FOLDER"] == f"{root}/dags"
    assert env["AIRFLOW__CORE__PLUGINS_FOLDER"] == f"{root}/plugins"
    assert env["AIRFLOW_CONFIG"] == local.AIRFLOW_CONFIG
    assert env["AIRFLOW__WEBSERVER__WEB_SERVER_PORT"] == "8002"
    assert env["AIRFLOW__CORE__LOAD_EXAMPLES"] == "True" and env["MINIO_IP"] == "1.2.3.4"


def state_of(proj: Project, stopped: float | None = None) -> local.State:
    return local.State(proj.root, proj.compose_name, proj.webserver_port, 1000.0, stopped)


def test_state_round_trips(tmp_path: Path) -> None:
    state = state_of(make_project(tmp_path), stopped=1300.0)
    (tmp_path / "s.json").write_text(state.to_json())
    assert local.State.load(tmp_path / "s.json") == state
    (tmp_path / "bad.json").write_text("{")
    assert local.State.load(tmp_path / "bad.json") is None
    assert local.State.load(tmp_path / "missing.json") is None


def test_containers_are_found_by_name_or_id(tmp_path: Path) -> None:
    state = state_of(make_project(tmp_path, "8002"))
    items = local.containers(state, {"webserver": True, "scheduler": True, "postgres": False})
    web = items[0]
    assert web.name == f"{state.compose_name}-webserver-1" and web.ports == "0.0.0.0:8002->8080/tcp"
    assert len(web.id) == 12 and len(web.full_id) == 64 and web.full_id.startswith(web.id)
    assert local.find_container(items, web.name) is web
    assert local.find_container(items, web.id) is web
    assert local.find_container(items, web.full_id[:5]) is web
    assert local.find_container(items, "nope") is None
    assert [c.running for c in items] == [True, True, False]


def test_save_writes_what_the_service_scripts_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    for name, value in {"RUN_DIR": run, "STATE_FILE": run / "astro.json", "ENV_FILE": run / "astro.env",
                        "CURRENT": run / "project"}.items():
        monkeypatch.setattr(local, name, value)
    proj = make_project(tmp_path, "8002")
    state = local.save(proj)
    assert local.State.load(run / "astro.json") == state and state.port == 8002
    assert (run / "project").resolve() == proj.root.resolve()
    port = subprocess.run(["bash", "-c", f". {run / 'astro.env'}; echo $AIRFLOW__WEBSERVER__WEB_SERVER_PORT"],
                          capture_output=True, text=True).stdout.strip()
    assert port == "8002"
    other = Project(tmp_path / "other")
    project.init(other.root, confirm=lambda q: True)
    local.save(other)
    assert (run / "project").resolve() == other.root.resolve()


@pytest.mark.parametrize(("seconds", "text"), [(0.2, "Less than a second"), (5, "5 seconds"), (61, "About a minute"),
                                               (600, "10 minutes"), (3700, "About an hour"), (7300, "2 hours")])
def test_ago(seconds: float, text: str) -> None:
    assert local.ago(seconds) == text


# ---- astro ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "action", "args"),
    [
        (["dev", "init"], "dev init", []),
        (["dev", "start", "--no-browser"], "dev start", []),
        (["dev", "restart"], "dev restart", []),
        (["dev", "stop"], "dev stop", []),
        (["dev", "ps"], "dev ps", []),
        (["dev", "run", "dags", "list-runs", "-o", "plain", "--dag-id", "d", "--no-backfill"], "dev run",
         ["dags", "list-runs", "-o", "plain", "--dag-id", "d", "--no-backfill"]),
        (["run", "workFlow_Echo"], "run", ["workFlow_Echo"]),
        (["config", "set", "webserver.port", "8002"], "config set", ["webserver.port", "8002"]),
        (["config", "get", "webserver.port"], "config get", ["webserver.port"]),
        (["version"], "version", []),
        (["deployment", "service"], "cloud", ["deployment"]),
        ([], "help", []),
    ],
)
def test_astro_parses_what_the_scripts_run(argv: list[str], action: str, args: list[str]) -> None:
    command = astro.parse(argv)
    assert (command.action, command.args) == (action, args)


def test_astro_options() -> None:
    assert astro.parse(["dev", "start", "-n", "--wait", "5m"]).options["no_browser"] is True
    assert astro.parse(["dev", "init", "--name", "x", "--runtime-version", "10.5.0"]).options["runtime_version"] == "10.5.0"
    assert astro.parse(["config", "set", "-g", "webserver.port", "1"]).options == {"global": True}
    assert astro.parse(["dev", "logs", "-f", "--scheduler"]).options["follow"] is True
    with pytest.raises(SystemExit):
        astro.parse(["dev", "start", "--bogus"])
    with pytest.raises(ProjectError, match='unknown command "fly"'):
        astro.parse(["fly"])
    with pytest.raises(ProjectError, match="needs a KEY and a VALUE"):
        astro.parse(["config", "set", "webserver.port"])
    with pytest.raises(ProjectError, match="not available in this environment"):
        astro.parse(["dev", "upgrade-test"])


def test_astro_version_and_cloud_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert astro.main(["version"]) == 0
    assert capsys.readouterr().out == "Astro CLI Version: 1.25.0\n"
    assert astro.main(["deployment", "list"]) == 1
    assert "needs an Astro account" in capsys.readouterr().err


def test_astro_config_on_a_project(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert astro.main(["config", "set", "webserver.port", "8002"]) == 1
    assert "not an Astro project directory" in capsys.readouterr().err
    project.init(tmp_path, confirm=lambda q: True)
    assert astro.main(["config", "set", "webserver.port", "8002"]) == 0
    assert capsys.readouterr().out == "Setting webserver.port to 8002 successfully\n"
    assert astro.main(["config", "get", "webserver.port"]) == 0
    assert capsys.readouterr().out == "8002\n"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert astro.main(["config", "set", "-g", "show_warnings", "false"]) == 0
    assert project.config_get(tmp_path / "home" / project.CONFIG, "show_warnings") == "false"


@pytest.mark.parametrize(("stdin", "initialised"), [("y\n", True), ("n\n", False), ("", False)])
def test_astro_dev_init_answers_the_question_from_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], stdin: str,
                                                        initialised: bool) -> None:
    (tmp_path / "Dockerfile").write_text("FROM quay.io/astronomer/astro-runtime:10.5.0\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert astro.main(["dev", "init"]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / ".astro" / "config.yaml").exists() is initialised
    assert ("Initialized empty Astro project in" in out) is initialised
    assert ("Canceling project initialization" in out) is not initialised


def fake_running(monkeypatch: pytest.MonkeyPatch, state: local.State | None, alive: dict[str, bool]) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(local.State, "load", classmethod(lambda cls, path=None: state))
    monkeypatch.setattr(local, "alive_components", lambda: alive)
    monkeypatch.setattr(local, "service", lambda action, timeout=300: calls.append(action) or
                        subprocess.CompletedProcess([], 0, "", ""))
    monkeypatch.setattr(local, "save", lambda proj: calls.append(f"save {proj.root.name}"))
    monkeypatch.setattr(local, "mark_stopped", lambda st: calls.append("stopped"))
    monkeypatch.setattr(astro, "import_settings", lambda proj, f: calls.append(f"settings {f}"))
    monkeypatch.setattr(astro, "check_build_inputs", lambda proj: None)
    return calls


ALL_UP = {"webserver": True, "scheduler": True, "postgres": True}
ALL_DOWN = {"webserver": False, "scheduler": False, "postgres": False}


def test_astro_dev_ps_lists_the_components(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    proj = make_project(tmp_path, "8002")
    monkeypatch.chdir(proj.root)
    fake_running(monkeypatch, state_of(proj), ALL_UP)
    assert astro.main(["dev", "ps"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Name", "State", "Ports"]
    web = [line for line in lines if "webserver" in line]
    assert len(web) == 1 and web[0].split() == [f"{proj.compose_name}-webserver-1", "running", "8002"]
    fake_running(monkeypatch, None, ALL_DOWN)
    assert astro.main(["dev", "ps"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_astro_dev_start_runs_the_service_on_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    proj = make_project(tmp_path, "8002")
    monkeypatch.chdir(proj.root)
    calls = fake_running(monkeypatch, None, ALL_DOWN)
    assert astro.main(["dev", "start", "--no-browser"]) == 0
    assert calls == ["save weather", "start", "settings airflow_settings.yaml"]
    out = capsys.readouterr().out
    assert "Airflow Webserver: http://localhost:8002" in out
    assert "The default Airflow UI credentials are: admin:admin" in out


def test_astro_dev_start_on_a_running_project_fails_and_restart_restarts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    proj = make_project(tmp_path)
    monkeypatch.chdir(proj.root)
    calls = fake_running(monkeypatch, state_of(proj), ALL_UP)
    assert astro.main(["dev", "start"]) == 1
    assert "cannot start, project already running" in capsys.readouterr().err and calls == []
    assert astro.main(["dev", "restart"]) == 0
    assert calls == ["stop", "save weather", "start", "settings airflow_settings.yaml"]


def test_astro_dev_start_replaces_another_running_airflow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = make_project(tmp_path)
    monkeypatch.chdir(proj.root)
    calls = fake_running(monkeypatch, None, ALL_UP)  # the image's own Airflow, not this project
    assert astro.main(["dev", "start"]) == 0
    assert calls[:3] == ["stop", "save weather", "start"]


def test_astro_dev_stop_only_stops_this_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = make_project(tmp_path)
    monkeypatch.chdir(proj.root)
    calls = fake_running(monkeypatch, None, ALL_UP)
    assert astro.main(["dev", "stop"]) == 0 and calls == []
    calls = fake_running(monkeypatch, state_of(proj), ALL_UP)
    assert astro.main(["dev", "stop"]) == 0 and calls == ["stop", "stopped"]


def test_astro_dev_run_needs_the_running_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    proj = make_project(tmp_path)
    monkeypatch.chdir(proj.root)
    fake_running(monkeypatch, None, ALL_DOWN)
    assert astro.main(["dev", "run", "dags", "list"]) == 1
    assert "project not running" in capsys.readouterr().err
    fake_running(monkeypatch, state_of(proj), ALL_UP)
    ran: list[tuple] = []
    monkeypatch.setattr(astro.os, "execvpe", lambda f, argv, env: ran.append((argv, env["AIRFLOW_HOME"])))
    astro.main(["dev", "run", "dags", "list", "-o", "plain"])
    assert ran == [(["airflow", "dags", "list", "-o", "plain"], str(proj.root.resolve()))]


def test_run_dag_summary() -> None:
    lines, status = run_dag.summary("d", "success", {"a": "success", "b[0]": "success"})
    assert status == 0 and lines == ["Task a: success", "Task b[0]: success", "Completed running the DAG d. 🚀"]
    lines, status = run_dag.summary("d", "failed", {"a": "failed", "b": "upstream_failed", "c": None})
    assert status == 1 and lines[-1] == "Error: the DAG d finished in state failed: a, b failed" and "Task c: none" in lines


# ---- docker -----------------------------------------------------------------------------------


def test_docker_parses_clusters_values_and_the_exec_command() -> None:
    inv = docker.parse(["ps", "-qf", "name=scheduler"])
    assert inv.flag("-q") and inv.values("-f") == ["name=scheduler"]
    inv = docker.parse(["ps", "--filter=name=web", "--format", "{{.Names}}", "-a"])
    assert inv.values("--filter") == ["name=web"] and inv.values("--format") == ["{{.Names}}"] and inv.flag("-a")
    inv = docker.parse(["exec", "-it", "-e", "A=1", "abc", "airflow", "dags", "list", "-o", "plain"])
    assert inv.flag("-i", "-t") and inv.values("-e") == ["A=1"]
    assert inv.args == ["abc", "airflow", "dags", "list", "-o", "plain"]
    assert docker.parse(["container", "ls", "-a"]).command == "ps"
    with pytest.raises(docker.DockerError, match="unknown shorthand flag: 'z'"):
        docker.parse(["ps", "-z"])
    with pytest.raises(docker.DockerError, match="docker run: not available here"):
        docker.parse(["run", "hello-world"])
    with pytest.raises(docker.DockerError, match="flag needs an argument"):
        docker.parse(["ps", "--format"])


def test_docker_ps_prints_what_the_scripts_grep(tmp_path: Path) -> None:
    proj = make_project(tmp_path, "8002")
    state = state_of(proj)
    out = docker.ps(docker.parse(["ps"]), state, ALL_UP, now=1000.0 + 150)
    lines = out.splitlines()
    assert lines[0].split("   ")[0] == "CONTAINER ID" and lines[0].rstrip().endswith("NAMES")
    web = [line for line in lines if "webserver" in line]
    items = local.containers(state, ALL_UP)
    assert len(web) == 1 and web[0].split()[0] == items[0].id
    assert "airflow" in web[0] and "8002" in web[0] and "Up 2 minutes" in web[0]
    scheduler = [line for line in lines if "scheduler" in line]
    assert scheduler[0].split()[0] == items[1].id and "8002" not in scheduler[0]


def test_docker_ps_flags(tmp_path: Path) -> None:
    proj = make_project(tmp_path)
    state = state_of(proj, stopped=1100.0)
    items = local.containers(state, ALL_UP)
    assert docker.ps(docker.parse(["ps", "-qf", "name=scheduler"]), state, ALL_UP, 1200.0) == f"{items[1].id}\n"
    names = docker.ps(docker.parse(["ps", "--format", "{{.Names}}"]), state, ALL_UP, 1200.0).split()
    assert names == [c.name for c in items]
    table = docker.ps(docker.parse(["ps", "--format", "table {{.Names}}\\t{{.Status}}"]), state, ALL_UP, 1200.0)
    assert table.splitlines()[0].split() == ["NAMES", "STATUS"]
    down = {"webserver": False, "scheduler": False, "postgres": True}
    assert docker.ps(docker.parse(["ps", "-q"]), state, down, 1200.0) == f"{items[2].id}\n"
    everything = docker.ps(docker.parse(["ps", "-a"]), state, down, 1200.0)
    assert "Exited (0) About a minute ago" in everything and len(everything.splitlines()) == 4
    assert docker.ps(docker.parse(["ps"]), None, ALL_DOWN, 1200.0).splitlines()[0].startswith("CONTAINER ID")
    with pytest.raises(docker.DockerError, match="invalid filter 'label'"):
        docker.ps(docker.parse(["ps", "-f", "label=x"]), state, ALL_UP, 1200.0)


def test_docker_resolves_containers_and_their_paths(tmp_path: Path) -> None:
    proj = make_project(tmp_path)
    state = state_of(proj)
    web = local.containers(state, ALL_UP)[0]
    assert docker.resolve(web.id, state, ALL_UP) == web
    with pytest.raises(docker.DockerError, match="No such container: nope"):
        docker.resolve("nope", state, ALL_UP)
    with pytest.raises(docker.DockerError, match="is not running"):
        docker.resolve(web.name, state, ALL_DOWN)
    with pytest.raises(docker.DockerError, match="No such container"):
        docker.resolve(web.name, None, ALL_DOWN)
    assert docker.container_path("/usr/local/airflow/include/a.txt", state) == f"{proj.root}/include/a.txt"
    assert docker.container_path("dags", state) == f"{proj.root}/dags"
    assert docker.container_path("/tmp/x", state) == "/tmp/x"
    assert docker.split_ref(f"{web.name}:/usr/local/airflow/x") == (web.name, "/usr/local/airflow/x")
    assert docker.split_ref("./a:b") == (None, "./a:b")
    command = docker.cp_command(docker.parse(["cp", f"{web.id}:include/out.log", "/home/user/Downloads"]), state, ALL_UP)
    assert command[-2:] == [f"{proj.root}/include/out.log", "/home/user/Downloads"] and command[0] == "cp"
    with pytest.raises(docker.DockerError, match="copying between containers"):
        docker.cp_command(docker.parse(["cp", "a", "b"]), state, ALL_UP)


def test_docker_exec_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = make_project(tmp_path)
    state = state_of(proj)
    web, _, postgres = local.containers(state, ALL_UP)
    monkeypatch.setenv("FROM_HOST", "h")
    env = docker.exec_env(docker.parse(["exec", "-e", "X=1", "-e", "FROM_HOST", web.id, "env"]), web, state)
    assert env["X"] == "1" and env["FROM_HOST"] == "h" and env["AIRFLOW_HOME"] == str(proj.root.resolve())
    assert docker.exec_env(docker.parse(["exec", postgres.id, "psql"]), postgres, state)["PGDATABASE"] == "airflow"


def test_docker_main_reports_errors_as_docker_does(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local.State, "load", classmethod(lambda cls, path=None: None))
    monkeypatch.setattr(local, "alive_components", lambda: ALL_DOWN)
    assert docker.main(["exec", "-i", "abc123", "airflow", "dags", "list"]) == 1
    assert capsys.readouterr().err == "Error response from daemon: No such container: abc123\n"
    assert docker.main(["compose", "up"]) == 1
    assert "docker compose: not available here" in capsys.readouterr().err


def test_the_recipe_installs_both_commands() -> None:
    dockerfile = (RECIPE / "Dockerfile").read_text()
    assert "COPY astro_standin/ /opt/spider2v/astro_standin/" in dockerfile
    for name, module in (("astro", "astro_standin.astro"), ("docker", "astro_standin.docker")):
        launcher = (RECIPE / "bin" / name).read_text()
        assert launcher.startswith("#!/opt/airflow/bin/python3") and f"from {module} import main" in launcher


def test_build_inputs_are_checked_and_nothing_is_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    proj = make_project(tmp_path)
    (proj.root / "Dockerfile").write_text("FROM my-registry/airflow:2\n")
    (proj.root / "requirements.txt").write_text("astronomer-cosmos==1.0.4\napache-airflow-providers-sqlite==3.4.2\n")
    versions = {"apache-airflow": "2.10.5", "apache-airflow-providers-sqlite": "3.9.1"}
    monkeypatch.setattr(project, "installed_version", versions.get)
    monkeypatch.setattr(astro.subprocess, "run", lambda *a, **kw: pytest.fail("nothing runs"))
    astro.check_build_inputs(proj)
    out = capsys.readouterr().out
    assert "image my-registry/airflow:2 is not built here" in out
    assert "apache-airflow-providers-sqlite==3.4.2 (installed: 3.9.1): the installed version is used" in out
    assert "requirement astronomer-cosmos==1.0.4 is not installed in this environment" in out


def test_the_vms_own_image_adds_its_paths_to_the_project(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The Cosmos tasks' Dockerfile names my-astro:1.0, which the VM had built with dbt-postgres
    in dbt_venv: the project gets dbt_venv as a link to this machine's dbt; a project's own
    dbt_venv stays, and so does an image nobody knows."""
    proj = make_project(tmp_path)
    (proj.root / "Dockerfile").write_text("FROM my-astro:1.0\n\n#FROM quay.io/astronomer/astro-runtime:10.5.0\n")
    monkeypatch.setattr(project, "installed_version", {"apache-airflow": "2.10.5"}.get)
    assert proj.image_paths() == {"dbt_venv": "/opt/dbt"}
    astro.check_build_inputs(proj)
    assert "image my-astro:1.0 is this machine's own Astro Runtime image" in capsys.readouterr().out
    assert proj.link_image_paths() == ["dbt_venv"]
    assert (proj.root / "dbt_venv").readlink() == Path("/opt/dbt")
    assert proj.link_image_paths() == []
    other = make_project(tmp_path / "other")
    (other.root / "dbt_venv").mkdir()
    (other.root / "Dockerfile").write_text("FROM my-astro:1.0\n")
    assert other.link_image_paths() == [] and not (other.root / "dbt_venv").is_symlink()
    (other.root / "Dockerfile").write_text("FROM quay.io/astronomer/astro-runtime:10.5.0\n")
    assert other.image_paths() == {}


def test_astro_dev_start_links_the_images_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = make_project(tmp_path)
    (proj.root / "Dockerfile").write_text("FROM my-astro:1.0\n")
    monkeypatch.chdir(proj.root)
    fake_running(monkeypatch, None, ALL_DOWN)
    assert astro.main(["dev", "start", "--no-browser"]) == 0
    assert (proj.root / "dbt_venv").is_symlink()


def test_the_docker_host_library_is_built_into_the_image() -> None:
    dockerfile = (RECIPE / "Dockerfile").read_text()
    source = (RECIPE / "docker_host.c").read_text()
    assert "0xAC110001u" in source and "INADDR_LOOPBACK" in source  # 172.17.0.1 -> 127.0.0.1
    library = "/usr/local/lib/libspider2v-docker-host.so"
    assert f"COPY --from=docker-host /tmp/libspider2v-docker-host.so {library}" in dockerfile
    assert f"echo {library} > /etc/ld.so.preload" in dockerfile  # every process of the machine


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler")
def test_the_docker_host_library_sends_connections_to_this_machine(tmp_path: Path) -> None:
    """Compiled here as the recipe does: a connection to 172.17.0.1 reaches a server listening
    on 127.0.0.1 at the same port."""
    library = tmp_path / "libdockerhost.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(library),
                    str(RECIPE / "docker_host.c"), "-ldl"], check=True)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code = f"import socket; print(socket.create_connection(('172.17.0.1', {port}), timeout=5).getpeername()[0])"
        result = subprocess.run([sys.executable, "-c", code], env={**os.environ, "LD_PRELOAD": str(library)},
                                capture_output=True, text=True, timeout=30)
    assert result.stdout.strip() == "127.0.0.1", result.stderr


def test_code_opens_files_in_order_in_the_airflow_image() -> None:
    """The airflow tasks' setup opens two files with `code` in a row: the image runs the
    desktop's stand-in (moved aside) one call at a time, each waiting until gedit shows its last
    file, so the last one is in front after every reset, as with VS Code."""
    dockerfile = (RECIPE / "Dockerfile").read_text()
    assert "mv /usr/local/bin/code /usr/local/libexec/spider2v-code" in dockerfile
    assert dockerfile.index("spider2v-code") < dockerfile.index("COPY bin/ /usr/local/bin/")
    wrapper = (RECIPE / "bin" / "code").read_text()
    assert "flock 9" in wrapper and '/usr/local/libexec/spider2v-code "$@" 9>&-' in wrapper  # no lock in gedit
    assert "wmctrl -l" in wrapper and "- gedit" in wrapper
    assert "sleep 1\nfi" in wrapper  # gedit's recent files: the next file is opened a second later
    result = subprocess.run(["bash", "-n", str(RECIPE / "bin" / "code")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_code_wrapper_waits_for_gedit_and_never_holds_the_lock(tmp_path: Path) -> None:
    """Run on this machine with a fake desktop stand-in that leaves a long-lived process behind
    (as gedit lives on) and a fake wmctrl listing gedit's window: a second call does not wait for
    the first one's gedit to exit, and each returns once the title shows its last file."""
    fake = tmp_path / "desktop-code"
    fake.write_text("#!/bin/bash\nsleep 8 &\nfor f in \"$@\"; do echo \"$(basename \"$f\")\" > "
                    f"{tmp_path}/front; done\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "wmctrl").write_text(f"#!/bin/bash\necho \"0x01 0 desktop $(cat {tmp_path}/front) (~/p) - gedit\"\n")
    wrapper = tmp_path / "code"
    wrapper.write_text((RECIPE / "bin" / "code").read_text().replace("/usr/local/libexec/spider2v-code", str(fake))
                       .replace('"/tmp/.spider2v-code-', f'"{tmp_path}/.lock-'))
    for path in (fake, bin_dir / "wmctrl", wrapper):
        path.chmod(0o755)
    (tmp_path / "a.py").write_text("")
    (tmp_path / "README.md").write_text("")
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    for name in ("a.py", "README.md"):
        started = time.monotonic()
        subprocess.run([str(wrapper), str(tmp_path / name)], env=env, check=True, timeout=7)
        assert time.monotonic() - started < 5
    assert (tmp_path / "front").read_text().strip() == "README.md"
