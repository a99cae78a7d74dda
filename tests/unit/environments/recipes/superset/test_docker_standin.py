"""The superset image's ``docker`` stand-in (environments/superset/docker_standin.py), run on the
host with its services, host file and state folder replaced by fakes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_spider2v.environments.locations import RECIPES_DIR

STANDIN = RECIPES_DIR / "superset" / "docker_standin.py"


def load_standin(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A fresh copy of the script as a module (registered while the test runs: dataclasses look it up)."""
    spec = importlib.util.spec_from_file_location("docker_standin_under_test", STANDIN)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def docker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The stand-in module with a fake ``spider2v-service`` that records calls and keeps state."""
    module = load_standin(monkeypatch)
    monkeypatch.setattr(module, "STATE_DIR", tmp_path / "state")
    monkeypatch.setattr(module, "SERVICE_LOG_DIR", tmp_path / "services")
    monkeypatch.setattr(module, "HOSTS_FILE", tmp_path / "hosts")
    (tmp_path / "hosts").write_text("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n")
    (tmp_path / "services").mkdir()
    module.calls = []
    module.up = set()
    module.failing = set()

    def service(action: str, name: str) -> bool:
        module.calls.append((action, name))
        if action == "start" and name not in module.failing:
            module.up.add(name)
            (tmp_path / "services" / f"{name}.log").write_text(f"{name} listening\n")
        elif action == "stop":
            module.up.discard(name)
        return name not in module.failing

    monkeypatch.setattr(module, "service", service)
    monkeypatch.setattr(module, "running", lambda container: container.service in module.up)
    return module


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "projects" / "superset"
    folder.mkdir(parents=True)
    (folder / "docker-compose-image-tag.yml").write_text("services: {}\n")
    (folder / "docker-compose.yml").write_text("services: {}\n")
    monkeypatch.chdir(folder)
    return folder


def test_compose_up_detached_starts_the_database_then_superset_and_logs_the_init_steps(
        docker: ModuleType, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert docker.main(["compose", "-f", "docker-compose-image-tag.yml", "up", "--detach"]) == 0
    assert docker.calls == [("start", "superset-db"), ("start", "superset")]
    capsys.readouterr()
    assert docker.main(["compose", "logs"]) == 0
    logs = capsys.readouterr().out
    assert "superset_init | Init Step 4/4 [Complete]" in logs.replace("  ", "")
    assert "superset_app  | superset listening" in logs


def test_compose_up_twice_writes_the_init_steps_once(docker: ModuleType, project: Path) -> None:
    docker.main(["compose", "up", "-d"])
    docker.main(["compose", "up", "-d"])
    assert (docker.STATE_DIR / "compose.log").read_text().count("Init Step 4/4 [Complete]") == 1


def test_compose_up_makes_the_container_host_names_resolve_here(docker: ModuleType, project: Path) -> None:
    docker.main(["compose", "up", "-d"])
    docker.main(["compose", "up", "-d"])
    hosts = docker.HOSTS_FILE.read_text()
    assert docker.missing_aliases(hosts) == []
    assert hosts.count("127.0.0.1\tdb ") == 1


def test_missing_aliases_ignores_comments_and_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    module = load_standin(monkeypatch)
    text = "127.0.0.1 localhost # db\n10.0.0.2 superset_db redis\n"
    assert module.missing_aliases(text) == ["db", "superset", "superset_app", "superset_cache"]


def test_compose_up_fails_naming_the_container_that_did_not_start(
        docker: ModuleType, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docker.failing.add("superset")
    assert docker.main(["compose", "up", "-d"]) == 1
    assert "superset_app did not start" in capsys.readouterr().err
    assert not (docker.STATE_DIR / "compose.log").exists()


def test_compose_needs_a_compose_file_as_compose_does(
        docker: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, project: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert docker.main(["compose", "-f", "missing.yml", "up", "-d"]) == 1
    assert "missing.yml: no such file or directory" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    assert docker.main(["compose", "up", "-d"]) == 1
    assert "no configuration file provided" in capsys.readouterr().err
    assert docker.calls == []


@pytest.mark.parametrize("command", ["down", "stop"])
def test_compose_down_and_stop_stop_superset_then_the_database(docker: ModuleType, project: Path, command: str) -> None:
    docker.main(["compose", "up", "-d"])
    docker.calls.clear()
    assert docker.main(["compose", "-f", "docker-compose-image-tag.yml", command]) == 0
    assert docker.calls == [("stop", "superset"), ("stop", "superset-db")]
    assert docker.up == set()


def test_ps_lists_only_running_containers(docker: ModuleType, project: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    docker.up.add("superset-db")
    docker.main(["ps"])
    out = capsys.readouterr().out
    assert "superset_db" in out and "superset_app" not in out


def test_cp_into_a_container_then_exec_reads_the_copy(
        docker: ModuleType, project: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "all_databases.sql").write_text("select 1;\n")
    assert docker.main(["cp", str(tmp_path / "all_databases.sql"), "superset_db:/all_databases.sql"]) == 0
    docker.up.add("superset-db")
    code = docker.main(["exec", "-t", "superset_db", sys.executable, "-c",
                        "import os, sys; print(os.environ['PGUSER'], open(sys.argv[1]).read().strip())",
                        "/all_databases.sql"])
    assert code == 0
    assert capfd.readouterr().out.strip() == "superset select 1;"


def test_cp_out_of_a_container(docker: ModuleType, tmp_path: Path) -> None:
    kept = docker.container_path("superset_app", "/app/superset_config.py")
    kept.parent.mkdir(parents=True)
    kept.write_text("ROW_LIMIT = 5\n")
    assert docker.main(["cp", "superset_app:/app/superset_config.py", str(tmp_path / "out.py")]) == 0
    assert (tmp_path / "out.py").read_text() == "ROW_LIMIT = 5\n"


def test_exec_in_a_stopped_or_unknown_container_fails(docker: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert docker.main(["exec", "superset_db", "psql"]) == 1
    assert "container superset_db is not running" in capsys.readouterr().err
    assert docker.main(["exec", "superset_worker", "celery"]) == 1
    assert "No such container: superset_worker" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["run", "postgres"], ["compose", "frobnicate"], ["network", "ls"]])
def test_unsupported_commands_fail_with_the_usage(docker: ModuleType, project: Path, argv: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert docker.main(argv) == 1
    err = capsys.readouterr().err
    assert "is not supported here" in err and "docker compose [-f FILE] up" in err
