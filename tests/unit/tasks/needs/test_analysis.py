"""The static needs analysis and the provides manifest, on patterns of the original tasks
reproduced in tmp folders (an Astro init script, a notebook importing sklearn, a DAG fetching a
URL, a missing file, `docker compose up`, `conda create`) and on this project's own tasks."""

from __future__ import annotations

import ast
import io
import json
import os
import zipfile
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from pytest_spider2v.environments.locations import RECIPES_DIR
from pytest_spider2v.environments.snapshots import load_manifest, load_snapshots
from pytest_spider2v.registry import load_extensions
from pytest_spider2v.tasks.availability import Accounts, unavailable_reasons
from pytest_spider2v.tasks.loading import load_tasks
from pytest_spider2v.tasks.model import VERBOSE_FOOTER, VERBOSE_HEADER, Task
from pytest_spider2v.tasks.needs import analysis as needs
from pytest_spider2v.tasks.needs import python_code
from pytest_spider2v.tasks.needs.files import analyse_file
from pytest_spider2v.tasks.needs.known_needs import load_known_needs
from pytest_spider2v.tasks.needs.task_needs import task_needs
from pytest_spider2v.testing.factories import task_document, write_checkout_task
from tests.support.shared import REPO, require, sample

REPO = REPO

SNAPSHOTS = "snapshots:\n  desktop: desktop\n  airflow: airflow\n  jupyter: jupyter\n  superset: superset\n  dagster: dagster\n"
PROVIDES: dict[str, Any] = {
    "serves": ["localhost", "127.0.0.1"],
    "distributions": {"sklearn": "scikit-learn", "airflow": "apache-airflow", "google.cloud.*": "google-cloud-*",
                      "airflow.providers.*": "apache-airflow-providers-*", "psycopg2": ["psycopg2-binary", "psycopg2"]},
    "families": {
        "desktop": {"programs": ["bash", "unzip", "mkdir", "sed", "yes", "curl", "jq", "sudo", "python3", "python",
                                 "pip", "conda", "createuser", "gnome-terminal", "code", "sleep", "cat", "expr",
                                 "grep"],
                    "commands": ["conda activate", "conda run"], "conda_envs": ["dbt"],
                    "python": ["python3"], "packages": ["pandas", "requests"]},
        "airflow": {"programs": ["airflow"], "conda_envs": ["airflow"], "packages": ["apache-airflow"]},
        "jupyter": {"programs": ["jupyter"], "conda_envs": ["jupyter"], "packages": ["numpy"]},
        "superset": {"programs": ["docker"], "commands": ["docker compose"]},
        "dagster": {"programs": ["dagster"], "conda_envs": ["dagster"]},
    },
}


@pytest.fixture(scope="module", autouse=True)
def registrations() -> None:
    load_extensions()


def environments(tmp_path: Path, provides: dict[str, Any] = PROVIDES) -> Path:
    """An environments folder: snapshots, provides, and recipes layered on the desktop."""
    folder = tmp_path / "envs"
    folder.mkdir(exist_ok=True)
    (folder / "snapshots.yaml").write_text(SNAPSHOTS)
    (folder / "provides.yaml").write_text(json.dumps(provides))  # JSON is YAML
    for recipe in provides["families"]:
        (folder / recipe).mkdir(exist_ok=True)
        if recipe != "desktop":
            (folder / recipe / "recipe.yaml").write_text("parent: desktop\n")
    return folder


def spider2v_task(root: Path, app: str, snapshot: str, files: dict[str, str | bytes],
                  config: list[dict[str, Any]] | None = None, evaluator: dict[str, Any] | None = None,
                  instruction: str = "Do it.", task_id: str | None = None) -> Task:
    """A task in a Spider2-V checkout under ``root``; ``files`` are written beside it and each
    is copied to the guest (scripts run) by its config, as the originals do."""
    task_id = task_id or f"{app}-task"
    folder = root / "evaluation_examples" / "examples" / app / task_id
    folder.mkdir(parents=True)
    relative = f"evaluation_examples/examples/{app}/{task_id}"
    steps = list(config or [])
    for name, content in files.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
        kind = "script_and_execute" if name.endswith(".sh") else "copyfile_from_host_to_guest"
        steps.append({"type": kind, "parameters": {"src": f"{relative}/{name}", "dest": f"/home/user/{name}"}})
    document = task_document(id=task_id, snapshot=snapshot, instruction=instruction, related_apps=[app], tags=["gui"],
                             action_number=3, config=steps,
                             evaluator=evaluator or {"func": "exact_match", "result": {"type": "rule", "rules": 1},
                                                     "expected": {"type": "rule", "rules": 1}})
    (task,) = load_tasks(write_checkout_task(root, document))
    return task


def reasons(task: Task, envs: Path) -> list[str]:
    return [str(unmet) for unmet in needs.unmet_needs(task, envs)]


ASTRO_INIT = """#!/bin/bash

exec 1>/dev/null
exec 2>/dev/null

ASTRO_RUNTIME_VERSION=10.5.0

function to_ready_state(){
    echo "source /home/user/anaconda3/etc/profile.d/conda.sh" >> ~/.bashrc  # not a call
    mkdir -p /home/user/projects/astro-proj && cd /home/user/projects/astro-proj
    yes | astro dev init
    sed -i "s/astro-runtime:.*$/astro-runtime:${ASTRO_RUNTIME_VERSION}/" Dockerfile
    astro dev start --no-browser
    wait
}
to_ready_state
"""


def test_init_script_calling_astro_is_a_missing_program(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "airflow", "airflow", {"init.sh": ASTRO_INIT})
    assert reasons(task, envs) == [
        "needs program 'astro' (called in init.sh line 11: astro dev init), not in image 'airflow'"]
    (unmet,) = needs.unmet_needs(task, envs)
    assert unmet.summary == "needs program 'astro', not in image 'airflow'"


def test_a_program_added_to_the_manifest_is_provided(tmp_path: Path) -> None:
    provides = json.loads(json.dumps(PROVIDES))
    provides["families"]["airflow"]["programs"].append("astro")  # the one-line change a stand-in needs
    task = spider2v_task(tmp_path, "airflow", "airflow", {"init.sh": ASTRO_INIT})
    assert reasons(task, environments(tmp_path, provides)) == []


NAUTILUS_INIT = """#!/bin/bash
mkdir -p /home/user/data
nautilus /home/user/data &
"""


def test_a_bigquery_task_opening_a_folder_in_nautilus_is_runnable_in_the_clouds_image(tmp_path: Path) -> None:
    """Issue 38: the clouds image (snapshot `bigquery`) has Nautilus, and the project's
    manifest says so; a program it still lacks still makes the task unrunnable."""
    assert load_snapshots()["bigquery"].recipe == "clouds"
    task = spider2v_task(tmp_path / "opens", "bigquery", "bigquery", {"init.sh": NAUTILUS_INIT})
    assert reasons(task, RECIPES_DIR) == []
    lacking = spider2v_task(tmp_path / "lacks", "bigquery", "bigquery",
                            {"init.sh": NAUTILUS_INIT + "rclone sync drive:data /home/user/data\n"})
    assert reasons(lacking, RECIPES_DIR) == [
        "needs program 'rclone' (called in init.sh line 4: rclone sync drive:data /home/user/data), not in image 'clouds'"]


def test_a_program_no_image_can_have_says_why(tmp_path: Path) -> None:
    """provides.yaml's cannot_provide: systemctl, and `docker run` where a family's docker stand-in
    offers other subcommands, are skipped saying why no image has them; a program that could be
    installed (rclone) says only that the image lacks it, and a stand-in's own subcommand is provided."""
    calls = "systemctl enable docker\ndocker run hello-world\ndocker ps\nrclone version\n"
    task = spider2v_task(tmp_path, "airflow", "airflow", {"init.sh": "#!/bin/bash\n" + calls})
    assert reasons(task, RECIPES_DIR) == [
        "needs program 'systemctl' (called in init.sh line 2: systemctl enable docker), not in image 'airflow': "
        "no init system runs in a container (services start with spider2v-service)",
        "needs 'docker run hello-world' (called in init.sh line 3: docker run hello-world), not in image 'airflow', "
        "which has only 'docker container exec', 'docker container logs', 'docker container ls', "
        "'docker container ps', 'docker cp', 'docker exec', 'docker logs', 'docker ps': no Docker daemon runs "
        "inside the environment (containers the tasks name are played by a stand-in)",
        "needs program 'rclone' (called in init.sh line 5: rclone version), not in image 'airflow'"]


MYSQL_INIT = """#!/bin/bash
sudo -S mysql < database_init.sql
"""
MYSQL_DAG = "from airflow.providers.mysql.operators.mysql import MySqlOperator\n"


def test_a_dagster_task_using_mysql_and_the_airflow_mysql_provider_is_runnable_in_the_dagster_image(
        tmp_path: Path) -> None:
    """Issue 38: the dagster image has MariaDB's `mysql` and the Airflow MySQL provider, and the
    manifest says so; what it still lacks (a MySQL provider's sibling it has not) is still named."""
    assert load_snapshots()["dagster"].recipe == "dagster"
    task = spider2v_task(tmp_path / "uses", "dagster", "dagster",
                         {"init.sh": MYSQL_INIT, "pageviews.py": MYSQL_DAG},
                         instruction="Run the DAG pageviews.py.")
    assert reasons(task, RECIPES_DIR) == []
    lacking = spider2v_task(tmp_path / "lacks", "dagster", "dagster",
                            {"init.sh": MYSQL_INIT, "pageviews.py": MYSQL_DAG.replace("mysql", "oracle")},
                            instruction="Run the DAG pageviews.py.")
    assert reasons(lacking, RECIPES_DIR) == [
        "imports airflow.providers.oracle (apache-airflow-providers-oracle) in pageviews.py line 1, not in image 'dagster'"]


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "source": ["Data from <https://www.kaggle.com/datasets/x>\n", "import torch\n"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import numpy as np\n",
                                         "from sklearn.cluster import KMeans\n", "import os, json\n"]},
        {"cell_type": "code", "source": "!pip install seaborn\ntry:\n    import tqdm\nexcept ImportError:\n    tqdm = None\n"},
        {"cell_type": "code", "source": ["%%bash\n", "curl -O https://example.org/data.csv\n"]},
    ],
}


def test_a_name_imported_from_a_namespace_package_is_resolved_by_its_own_distribution(tmp_path: Path) -> None:
    desktop = {**PROVIDES["families"]["desktop"], "packages": ["pandas", "google-cloud-bigquery"]}
    envs = environments(tmp_path, {**PROVIDES, "families": {**PROVIDES["families"], "desktop": desktop}})
    task = spider2v_task(tmp_path, "desktop", "desktop", {"query.py": (
        "from google.cloud import bigquery\nfrom pandas import DataFrame, Series\nfrom google.cloud import storage\n")},
        instruction="Run query.py and save what it prints.")
    assert reasons(task, envs) == [  # bigquery and pandas are there; storage is not, and named as such
        "imports google.cloud.storage in query.py line 3, not in image 'desktop'"]


def test_a_template_that_does_not_parse_resolves_its_imports_as_parsed_code_does(tmp_path: Path) -> None:
    """A task's ``query.py`` left for the agent to fill in does not parse, so it is read line by
    line: ``from google.cloud import bigquery`` is still google.cloud.bigquery, not google.cloud."""
    desktop = {**PROVIDES["families"]["desktop"], "packages": ["pandas", "google-cloud-bigquery"]}
    envs = environments(tmp_path, {**PROVIDES, "families": {**PROVIDES["families"], "desktop": desktop}})
    template = ("from google.cloud import bigquery\nfrom pandas import (DataFrame,\n    Series as S)\n"
                "from google.cloud import storage as gcs, bigquery_storage  # two of them\n\n"
                'client = bigquery.Client(project=<YOUR PROJECT ID>)\nquery = """\n    <YOUR SQL HERE>\n"""\n')
    task = spider2v_task(tmp_path, "desktop", "desktop", {"query.py": template},
                         instruction="Complete query.py, run it and save what it prints.")
    assert reasons(task, envs) == [
        "imports google.cloud.storage in query.py line 4, not in image 'desktop'",
        "imports google.cloud.bigquery_storage in query.py line 4, not in image 'desktop'"]

RUN_ALL = "Complete the notebook, then run all the cells and save it."
SKLEARN_IN_CELL_2 = "imports sklearn (scikit-learn) in notebook.ipynb cell 2 line 3, not in image 'jupyter'"


def test_notebook_imports_and_installs_are_needs(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "jupyter", "jupyter", {"notebook.ipynb": json.dumps(NOTEBOOK)}, instruction=RUN_ALL)
    assert reasons(task, envs) == [
        SKLEARN_IN_CELL_2,
        "installs Python package 'seaborn' (notebook.ipynb cell 3 line 1), not in image 'jupyter'",
        "downloads from example.org (notebook.ipynb cell 4 line 2; no internet here)",
    ]
    assert [u.summary for u in needs.unmet_needs(task, envs)][0] == "imports sklearn (scikit-learn), not in image 'jupyter'"


@pytest.mark.parametrize(("instruction", "runs"), [
    ("Open the notebook notebook.ipynb in JupyterLab, served at port 1036.", False),
    ("This notebook has been run; clear all its outputs.", False),
    ("Copy the code of code.py into a new notebook; you don't need to run it.", False),
    ("Determine the total number of games and record it in games.csv.", True),
    ("Please get the code in the opened notebook running smoothly.", True),
    ("This notebook has been run; run it again after fixing the import.", True),
])
def test_a_notebooks_imports_are_needs_when_the_task_runs_it(tmp_path: Path, instruction: str, runs: bool) -> None:
    """A notebook the task only opens, clears or copies from needs none of its imports; one whose
    code the instruction asks to run (or asks a result of) needs them."""
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "jupyter", "jupyter", {"notebook.ipynb": json.dumps(NOTEBOOK)},
                         instruction=instruction)
    assert (SKLEARN_IN_CELL_2 in reasons(task, envs)) is runs


@pytest.mark.parametrize("command", [
    "jupyter nbconvert --to notebook --execute --inplace /home/user/notebook.ipynb",
    "papermill notebook.ipynb out.ipynb",
    "python -c 'import nbformat; from nbconvert.preprocessors import ExecutePreprocessor'",
])
def test_a_notebook_the_tasks_code_executes_needs_its_imports(tmp_path: Path, command: str) -> None:
    """Whatever the instruction says, a notebook that a step or the evaluation executes runs."""
    envs = environments(tmp_path)
    config = [{"type": "execute", "parameters": {"command": command}}]
    task = spider2v_task(tmp_path, "jupyter", "jupyter", {"notebook.ipynb": json.dumps(NOTEBOOK)}, config=config,
                         instruction="Open the notebook in JupyterLab.")
    assert SKLEARN_IN_CELL_2 in reasons(task, envs)


OPEN_IN_JUPYTERLAB = {"type": "launch", "parameters": {"command": [
    "bash", "-c", "source /home/user/anaconda3/etc/profile.d/conda.sh && conda activate jupyter && "
                  "jupyter lab /home/user/notebook.ipynb"]}}
EXECUTE_IT = {"type": "execute", "parameters": {
    "command": ["jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace", "/home/user/notebook.ipynb"]}}


def verbose(instruction: str, tutorial: str) -> str:
    """A verbose variant's instruction, wrapped as every verbose task's is."""
    return f"{instruction}{VERBOSE_HEADER}{tutorial}{VERBOSE_FOOTER}"


def opened_notebook_task(tmp_path: Path, instruction: str, func: str, result: str = "/home/user/notebook.ipynb",
                         postconfig: list[dict[str, Any]] | None = None,
                         notebook: dict[str, Any] = NOTEBOOK) -> Task:
    """A task that copies notebook.ipynb into place and opens it in JupyterLab, scored by ``func``
    on the guest's ``result`` (against the notebook itself, where the metric compares two)."""
    relative = "evaluation_examples/examples/jupyter/jupyter-task/notebook.ipynb"
    expected = ({"type": "rule", "rules": {"expected": []}} if func in ("is_jupyter_cell_executed", "are_jupyter_outputs_cleared")
                else {"type": "local_file", "path": relative, "dest": "expected"})
    evaluator = {"func": func, "postconfig": postconfig or [], "expected": expected,
                 "result": {"type": "vm_file", "path": result, "dest": PurePosixPath(result).name}}
    return spider2v_task(tmp_path, "jupyter", "jupyter", {"notebook.ipynb": json.dumps(notebook)},
                         config=[OPEN_IN_JUPYTERLAB], evaluator=evaluator, instruction=instruction)


CLEAR_IT = verbose("This notebook has been run; clear all its outputs.",
                   '1. Click "Edit" in the menu bar.\n2. Click "Clear Outputs of All Cells" and save.')
COMPLETE_IT = "Complete the #TODO parts of the opened notebook and save it."


@pytest.mark.parametrize(("instruction", "func"), [
    (CLEAR_IT, "are_jupyter_outputs_cleared"),  # a verbose variant's wrapping asks for nothing
    (COMPLETE_IT, "compare_notebook_cells"),  # completed cells scored by their source need no kernel
    (verbose(COMPLETE_IT, "1. Type the code below each #TODO.\n2. Press Ctrl+S."), "compare_notebook_cells"),
])
def test_a_notebook_only_opened_and_scored_without_a_run_needs_none_of_its_imports(
        tmp_path: Path, instruction: str, func: str) -> None:
    """The notebook imports sklearn, which the image lacks, and installs and downloads in its cells:
    none of that counts when nothing runs it, and the task is runnable."""
    task = opened_notebook_task(tmp_path, instruction, func)
    assert reasons(task, environments(tmp_path)) == []


@pytest.mark.parametrize(("instruction", "func"), [(CLEAR_IT, "are_jupyter_outputs_cleared"),
                                                   (COMPLETE_IT, "compare_notebook_cells")])
def test_the_same_notebook_executed_by_the_evaluation_needs_its_imports(
        tmp_path: Path, instruction: str, func: str) -> None:
    """The negative: a postconfig step that executes the notebook runs its cells, whatever the metric."""
    task = opened_notebook_task(tmp_path, instruction, func, postconfig=[EXECUTE_IT])
    assert SKLEARN_IN_CELL_2 in reasons(task, environments(tmp_path))


@pytest.mark.parametrize("func", ["compare_notebook_outputs", "is_jupyter_cell_executed", "compare_ipynb_files"])
def test_an_evaluation_that_scores_a_run_needs_the_notebooks_imports(tmp_path: Path, func: str) -> None:
    """Cell outputs, execution counts or the saved JSON whole: only running the notebook makes
    them, so the agent must, though the instruction only says to open it."""
    task = opened_notebook_task(tmp_path, "Open the notebook in JupyterLab and save it.", func)
    assert SKLEARN_IN_CELL_2 in reasons(task, environments(tmp_path))


WRITING_NOTEBOOK = {"cells": [*NOTEBOOK["cells"][:2],
                              {"cell_type": "code", "source": "df.to_csv('/home/user/result.csv')\n"}]}


@pytest.mark.parametrize(("result", "needed"), [("/home/user/result.csv", True), ("/home/user/answer.csv", False)])
def test_a_file_the_notebook_writes_scored_by_the_evaluation_needs_its_imports(
        tmp_path: Path, result: str, needed: bool) -> None:
    """result.csv is what running the notebook writes; answer.csv, which the notebook never
    names, the agent writes some other way."""
    task = opened_notebook_task(tmp_path, "Open the notebook in JupyterLab and save the table.", "compare_csv",
                                result=result, notebook=WRITING_NOTEBOOK)
    assert (SKLEARN_IN_CELL_2 in reasons(task, environments(tmp_path))) is needed


@pytest.mark.parametrize(("solution", "needed"), [
    ('import subprocess\nsubprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",'
     ' "notebook.ipynb"], cwd="/home/user")\n', True),
    ("from jupyter_ui import run_all_cells, save_when_all_ran\nrun_all_cells()\n"
     'save_when_all_ran("/home/user/notebook.ipynb")\n', True),
    ('import json\ncells = json.load(open("/home/user/notebook.ipynb"))["cells"]\n', False),
])
def test_a_reference_solution_that_runs_the_notebook_needs_its_imports(
        tmp_path: Path, solution: str, needed: bool) -> None:
    """The task's reference solution shows its route: one that executes the notebook needs what
    it imports; one that reads the cells' source is no evidence either way."""
    task = opened_notebook_task(tmp_path, "Open the notebook in JupyterLab and save it.", "compare_notebook_cells")
    path = tmp_path / "solution.py"
    path.write_text(solution)
    assert (SKLEARN_IN_CELL_2 in reasons(replace(task, solution=path), environments(tmp_path))) is needed


@pytest.mark.parametrize("instruction", [
    "Run all cells of the notebook, then clear all their outputs and save it.",
    verbose("Clear all outputs of the notebook and save it.",
            '1. Click "Run > Run All Cells".\n2. Click "Edit > Clear Outputs of All Cells".'),
])
def test_an_instruction_that_asks_to_run_the_notebook_needs_its_imports(tmp_path: Path, instruction: str) -> None:
    """Words that ask outright for a run keep the imports even where the metric reads no run's
    product (the agent will run the cells); a verbose variant's tutorial is the task's own words."""
    task = opened_notebook_task(tmp_path, instruction, "are_jupyter_outputs_cleared")
    assert SKLEARN_IN_CELL_2 in reasons(task, environments(tmp_path))


def test_a_result_asked_of_an_evaluation_that_may_need_a_run_keeps_the_imports(tmp_path: Path) -> None:
    """"Complete" scored by a metric that is not known to read only the source (here a CSV the
    notebook does not name): the result may come from running the cells, so they stay needs."""
    task = opened_notebook_task(tmp_path, COMPLETE_IT, "compare_csv", result="/home/user/answer.csv")
    assert SKLEARN_IN_CELL_2 in reasons(task, environments(tmp_path))


DATASET_NOTEBOOK = {
    "cells": [
        {"cell_type": "code", "source": "from sklearn.datasets import fetch_california_housing\nimport seaborn as sns\n"},
        {"cell_type": "code", "source": "df = fetch_california_housing(as_frame=True).frame\n"},
        {"cell_type": "code", "source": "import sklearn.datasets as d\nX = d.fetch_openml('iris')\n"
                                        "def fetch_local():\n    return 1\nfetch_local()\nsns.heatmap(df)\n"},
    ],
}


def test_library_calls_that_download_their_data_are_internet_needs(tmp_path: Path) -> None:
    """No URL is written, yet sklearn's fetchers (imported in an earlier cell, or through a
    module alias) download; a local function of a similar name and other calls do not."""
    provides = {**PROVIDES, "families": {**PROVIDES["families"],
                                         "jupyter": {"programs": ["jupyter"], "conda_envs": ["jupyter"],
                                                     "packages": ["scikit-learn", "seaborn"]}}}
    envs = environments(tmp_path, provides)
    task = spider2v_task(tmp_path, "jupyter", "jupyter", {"notebook.ipynb": json.dumps(DATASET_NOTEBOOK)},
                         instruction=RUN_ALL)
    assert reasons(task, envs) == [
        "downloads from ndownloader.figshare.com (notebook.ipynb cell 2 line 1, "
        "sklearn.datasets.fetch_california_housing(); no internet here)",
        "downloads from api.openml.org (notebook.ipynb cell 3 line 2, sklearn.datasets.fetch_openml(); no internet here)",
    ]


DAG = '''"""Fetches the movies. See https://docs.example.com/guide for details."""
import requests  # https://requests.readthedocs.io
import pandas as pd
from airflow.providers.http.operators.http import HttpOperator
from movies.helpers import clean

SOURCE = f"https://raw.githubusercontent.com/owner/data/{'main'}/movies.csv"


def fetch():
    """Download the file (https://not-a-call.example.com)."""
    local = pd.read_csv("http://localhost:8080/cache.csv")
    return requests.get(SOURCE), local
'''


def project_zip(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_dag_in_an_archive_reaching_the_internet(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    archive = project_zip({
        "movies/dags/movies.py": DAG,
        "movies/movies/helpers.py": "def clean(x):\n    return x\n",
        "movies/tests/test_dag.py": "import pytest\nimport great_expectations\n",
        "movies/.astro/test_dag_integrity_default.py": "import pytest\n",
        "movies/Dockerfile": "FROM quay.io/astronomer/astro-runtime:10.5.0\n",
        "movies/requirements.txt": "# providers: https://docs.example.com/providers\nastronomer-cosmos==1.0.4\n",
        "movies/notes/requirements.txt": "never-installed\n",
    })
    task = spider2v_task(tmp_path, "airflow", "airflow", {"movies.zip": archive})
    assert reasons(task, envs) == [
        "imports airflow.providers.http (apache-airflow-providers-http) in "
        "movies.zip: movies/dags/movies.py line 4, not in image 'airflow'",
        "installs Python package 'astronomer-cosmos' (movies.zip: movies/requirements.txt line 2), not in image 'airflow'",
        "downloads from raw.githubusercontent.com (movies.zip: movies/dags/movies.py line 7; no internet here)",
    ]


def test_requirements_count_when_a_script_installs_them(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    files = {"requirements.txt": "pandas\nscipy>=1.10  # solver\n",
             "init.sh": "pip install -r /home/user/requirements.txt\npip install --upgrade 'polars[all]==1.0'\n"}
    task = spider2v_task(tmp_path, "desktop", "desktop", files)
    assert [u.need.name for u in needs.unmet_needs(task, envs)] == ["polars", "scipy"]


def test_missing_files_are_needs_but_account_settings_are_not(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    config = [
        {"type": "copyfile_from_host_to_guest",
         "parameters": {"src": "evaluation_examples/examples/superset/all_databases.sql", "dest": "/home/user/a.sql"}},
        {"type": "copyfile_from_host_to_guest",
         "parameters": {"src": "evaluation_examples/settings/dbt_cloud/settings.json", "dest": "/home/user/s.json"}},
    ]
    task = spider2v_task(tmp_path, "superset", "superset", {}, config=config)
    assert reasons(task, envs) == ["needs evaluation_examples/examples/superset/all_databases.sql (config[0].src), "
                                   "missing from the checkout"]



def test_a_file_a_step_writes_to_the_tasks_cache_is_not_missing_from_the_checkout(tmp_path: Path) -> None:
    """The original's ``cache/<task id>/`` is the task's cache, where ``snowflake_init`` writes the
    query ids a later step copies to the guest; another task's cache is no file of this one."""
    config = [
        {"type": "copyfile_from_host_to_guest",
         "parameters": {"src": "cache/snowflake-task/query_ids.txt", "dest": "/home/user/Desktop/query_id.txt"}},
        {"type": "copyfile_from_host_to_guest",
         "parameters": {"src": "cache/another-task/query_ids.txt", "dest": "/home/user/Desktop/other.txt"}},
    ]
    task = spider2v_task(tmp_path, "desktop", "desktop", {}, config=config, task_id="snowflake-task")
    assert reasons(task, environments(tmp_path)) == [
        "needs cache/another-task/query_ids.txt (config[1].src), missing from the checkout"]


SUPERSET_INIT = """#!/bin/bash
function start_superset_server() {
    cd /home/user/projects/superset
    docker compose -f docker-compose-image-tag.yml up --detach
    count=0
    while true; do
        sleep 5
        count=$(expr $count + 1)
        stop_flag=$(docker compose logs | grep "Init Step 4/4") # "Init Step 4/4 [Complete]"
        if [ $? -eq 0 ]; then
            break
        fi
    done
}
start_superset_server
docker exec -t superset_db psql -U superset -f /all_databases.sql
token=$(curl -X POST "http://localhost:8088/api/v1/security/login" \\
    -H "Content-Type: application/json" \\
    -d '{"username": "admin", "password": "admin", "provider": "db"}' | jq -rM ".access_token")
curl -X POST "http://localhost:8088/api/v1/database/" -H "Authorization: Bearer ${token}" \\
    -d '{"sqlalchemy_uri": "postgresql://superset:superset@db:5432/superset"}'
"""


def test_docker_compose_is_provided_where_declared_and_other_subcommands_are_not(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "superset", "superset", {"init.sh": SUPERSET_INIT})
    assert reasons(task, envs) == [
        "needs 'docker exec' (called in init.sh line 16: docker exec -t superset_db psql -U superset -f "
        "/all_databases.sql), not in image 'superset', which has only 'docker compose'",
        "connects to host 'db' (init.sh line 21), which image 'superset' does not serve",
    ]


def test_docker_compose_in_a_family_without_docker(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "desktop", "desktop", {"init.sh": "cd ~/projects/superset\ndocker compose up -d\n"})
    assert reasons(task, envs) == [
        "needs program 'docker' (called in init.sh line 2: docker compose up -d), not in image 'desktop'"]


def test_conda_create_and_environments(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    script = ("source /home/user/anaconda3/etc/profile.d/conda.sh\n"
              "conda create -n dagster python=3.11 -y\nconda activate dagster\nconda activate airflow\n"
              "conda run -n jupyter jupyter lab --no-browser\n")
    task = spider2v_task(tmp_path, "dagster", "dagster", {"init.sh": script})
    assert reasons(task, envs) == [
        "needs 'conda create' (called in init.sh line 2: conda create -n dagster python=3.11 -y), not in image "
        "'dagster', which has only 'conda activate', 'conda run'",
        "needs program 'jupyter' (called in init.sh line 5: jupyter lab --no-browser), not in image 'dagster'",
        "needs conda environment 'airflow' (activated in init.sh line 4), not in image 'dagster'",
        "needs conda environment 'jupyter' (activated in init.sh line 5), not in image 'dagster'",
    ]


def needs_of(tmp_path: Path, name: str, text: str) -> list[tuple[str, str, str]]:
    path = tmp_path / name
    path.write_text(text)
    return [(n.kind, n.name or n.detail, n.where) for n in analyse_file(path).needs]


def test_shell_reading(tmp_path: Path) -> None:
    script = r"""#!/bin/bash
# wget https://commented.example.com
echo "see https://docs.example.com"   # printed, not fetched
declare -a task_list=(
    "customers.customers_run"
    "orders.orders_test"
)
DIRS=("dagster_proj" "dagster_proj_tests")
for ((i=0; i<3; i++)); do :; done
case "$1" in
    start|run) echo go ;;
    *) exit 1 ;;
esac
helper() { true; }
helper
echo $PASSWORD | sudo -S -u postgres createuser --superuser user
env DEBUG=1 nohup timeout 30 dagster dev -p 3000 >start.log 2>&1 &
if command -v astro >/dev/null; then :; fi
flag="$(docker ps | grep webserver)"
URL=https://api.example.net/v1 && curl -s \
    "$URL" https://cdn.example.com/x.js
cat >> requirements.txt <<EOF
apache-airflow-providers-postgres==5.10.2
EOF
python - <<'PY'
import sklearn
PY
bash -c "psql -c 'select 1'"
"""
    found = needs_of(tmp_path, "init.sh", script)
    programs = sorted((name, where) for kind, name, where in found if kind == "program")
    assert programs == [("bash", "line 28"), ("cat", "line 22"), ("createuser", "line 16"), ("curl", "line 20"),
                        ("dagster", "line 17"), ("docker", "line 19"), ("grep", "line 19"), ("psql", "line 28"),
                        ("python", "line 25")]
    hosts = sorted((name, where) for kind, name, where in found if kind == "host")
    assert hosts == [("api.example.net", "line 20"), ("cdn.example.com", "line 21")]
    packages = sorted((name, where) for kind, name, where in found if kind == "package")
    assert packages == [("apache-airflow-providers-postgres", "line 23"), ("sklearn", "line 26")]


def test_python_reading(tmp_path: Path) -> None:
    code = '''"""Module doc: https://docs.example.com"""
from __future__ import annotations
import os, sys
from typing import TYPE_CHECKING
try:
    import ujson as json
except ImportError:
    import json
if TYPE_CHECKING:
    import mypy_extensions
from . import sibling
import dagster_duckdb.io_manager
API = "https://hacker-news.firebaseio.com/v0/topstories.json"  # a comment: https://x.example.org
DB = "sqlite:///local.db"
'''
    found = needs_of(tmp_path, "assets.py", code)
    imported = {n for k, n, _ in found if k == "package"}
    # a name imported from a module counts under it (the resolution takes its longest listed prefix)
    assert imported == {"__future__.annotations", "os", "sys", "typing.TYPE_CHECKING", "json", "dagster_duckdb.io_manager"}
    assert [(n, w) for k, n, w in found if k == "host"] == [("hacker-news.firebaseio.com", "line 13")]


def test_code_that_does_not_parse_is_read_line_by_line(tmp_path: Path) -> None:
    found = needs_of(tmp_path, "legacy.py", 'print "hi"\nimport urllib2\n# http://old.example.com\nu = "http://new.example.com/x"\n')
    assert ("package", "urllib2", "line 2") in found
    assert [n for k, n, _ in found if k == "host"] == ["new.example.com"]


EVAL_IMPORTING_THE_JOB = "import sys\nfrom jobs import hacker_news_job\nfrom etl_utils import clean\n"


@pytest.mark.parametrize(("instruction", "missing"), [
    ("Create the file jobs.py in the project folder, defining hacker_news_job; etl_utils is already there.",
     ["imports etl_utils in eval.py line 3, not in image 'dagster'"]),
    ("Define hacker_news_job in `hacker_news/jobs.py`, and write the module named 'etl_utils'.", []),
])
def test_modules_the_instruction_asks_for_are_the_tasks_own(tmp_path: Path, instruction: str,
                                                             missing: list[str]) -> None:
    """The evaluation imports the job module the agent is asked to write: no package to install
    (a bare name in prose, not written as a file or module, stays a need)."""
    envs = environments(tmp_path)
    evaluator = {"func": "check_include_exclude", "postconfig": [],
                 "result": {"type": "vm_script_output", "dest": "/home/user/eval.py",
                            "src": "evaluation_examples/examples/dagster/dagster-task/eval.py"},
                 "expected": {"type": "rule", "rules": {"include": ["succeed"]}}}
    task = spider2v_task(tmp_path, "dagster", "dagster", {"eval.py": EVAL_IMPORTING_THE_JOB}, evaluator=evaluator,
                         instruction=instruction)
    assert [r for r in reasons(task, envs) if r.startswith("imports")] == missing


def test_a_module_nothing_writes_stays_a_need(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "dagster", "dagster", {"eval.py": EVAL_IMPORTING_THE_JOB},
                         instruction="Add a schedule to hacker_news_job that runs it every hour.")
    assert [r for r in reasons(task, envs) if r.startswith("imports")] == [
        "imports jobs in eval.py line 2, not in image 'dagster'",
        "imports etl_utils in eval.py line 3, not in image 'dagster'",
    ]


@pytest.mark.parametrize("script", [
    "cat > /home/user/project/jobs.py <<'EOF'\nx = 1\nEOF\npython eval.py\n",
    "touch jobs.py && python eval.py",
    "cp /tmp/solution_job.txt /home/user/jobs.py\npython eval.py\n",
    "python -c \"open('jobs.py', 'w').write('x = 1')\"\npython eval.py\n",
])
def test_modules_the_tasks_scripts_write_are_the_tasks_own(tmp_path: Path, script: str) -> None:
    envs = environments(tmp_path)
    task = spider2v_task(tmp_path, "dagster", "dagster",
                         {"eval.py": "from jobs import x\n", "init.sh": script})
    assert [r for r in reasons(task, envs) if r.startswith("imports")] == []


def test_stdlib_and_shipped_modules_are_not_needs(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    files = {"assets.py": "import json, pathlib\nfrom helpers import x\nimport pandas\n", "helpers.py": "x = 1\n"}
    task = spider2v_task(tmp_path, "desktop", "desktop", files)
    assert reasons(task, envs) == []


def test_file_analyses_are_cached_until_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "init.sh"
    path.write_text("astro dev start\n")
    first = analyse_file(path)
    assert analyse_file(path) is first
    path.write_text("docker compose up\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert [n.name for n in analyse_file(path).needs] == ["docker"]


def test_step_commands_are_read_as_shell(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    config = [{"type": "launch", "parameters": {"command": ["gnome-terminal", "--maximize"]}},
              {"type": "execute", "parameters": {"command": "python -c \"import pyautogui; pyautogui.hotkey('ctrl', 's')\""}},
              {"type": "launch", "parameters": {"command": ["metabase", "start"]}}]
    task = spider2v_task(tmp_path, "desktop", "desktop", {}, config=config)
    assert reasons(task, envs) == [
        "needs program 'metabase' (called in config[2].command line 1: metabase start), not in image 'desktop'",
        "imports pyautogui in config[1].command line 1, not in image 'desktop'",
    ]


# -- the manifest ---------------------------------------------------------------------------------


def test_manifest_layers_families_on_their_parent(tmp_path: Path) -> None:
    manifest = load_manifest(environments(tmp_path))
    airflow = manifest.families["airflow"]
    assert {"airflow", "bash", "conda"} <= airflow.programs
    assert airflow.conda_envs == {"dbt", "airflow"}
    assert airflow.packages == {"pandas", "requests", "apache-airflow"}
    assert airflow.python == ("python3",)
    assert airflow.serves == {"localhost", "127.0.0.1"}
    assert airflow.subcommands("conda") == ("conda activate", "conda run")
    assert airflow.subcommands("airflow") == ()


def test_manifest_names_distributions(tmp_path: Path) -> None:
    manifest = load_manifest(environments(tmp_path))
    assert manifest.distributions_of("sklearn.cluster") == ("scikit-learn",)
    assert manifest.distributions_of("airflow.providers.common_sql.hooks") == ("apache-airflow-providers-common-sql",)
    assert manifest.distributions_of("airflow.models") == ("apache-airflow",)
    assert manifest.distributions_of("psycopg2.extras") == ("psycopg2-binary", "psycopg2")
    assert manifest.distributions_of("Dagster_DBT") == ("dagster-dbt",)


@pytest.mark.parametrize(("family", "message"), [
    ({"programs": ["x"], "packges": ["y"]}, r"unknown keys \['packges'\]"),
    ({"commands": ["docker"]}, "must be 'program subcommand ...'"),
])
def test_manifest_mistakes_are_named(tmp_path: Path, family: dict[str, Any], message: str) -> None:
    provides = {**PROVIDES, "families": {**PROVIDES["families"], "desktop": family}}
    with pytest.raises(ValueError, match=message):
        load_manifest(environments(tmp_path, provides))


def test_project_manifest_declares_every_recipe() -> None:
    manifest = load_manifest()
    recipes = {p.parent.name for p in RECIPES_DIR.glob("*/Dockerfile")}
    assert recipes == set(manifest.families)
    assert {s.recipe for s in load_snapshots().values()} <= set(manifest.families)
    for family in manifest.families.values():
        assert {c.split()[0] for c in family.commands} <= family.programs, family.name
        assert {"localhost", "127.0.0.1"} <= family.serves


def test_project_tasks_need_nothing_their_images_lack() -> None:
    files = sorted((REPO / "tasks").glob("*/*/task.json"))
    assert files
    problems = {task.key: reasons for f in files for task in load_tasks(f)
                if (reasons := [str(u) for u in needs.unmet_needs(task)])}
    assert problems == {}


def test_unavailable_reasons_include_unmet_needs(tmp_path: Path) -> None:
    task = spider2v_task(tmp_path, "desktop", "desktop",
                         {"init.sh": "mkdir -p ~/x && unzip -q a.zip\nno-such-program-here --now\n"})
    assert unavailable_reasons(task, Accounts()) == [
        "needs program 'no-such-program-here' (called in init.sh line 2: no-such-program-here --now), "
        "not in image 'desktop'"]


def test_restricted_subcommands_match_as_deep_as_declared(tmp_path: Path) -> None:
    provides = json.loads(json.dumps(PROVIDES))
    provides["families"]["desktop"]["commands"] = ["conda activate", "conda env list"]
    script = "conda env list\nconda activate dbt\nconda env create -f environment.yml\nconda info --envs\n"
    task = spider2v_task(tmp_path, "desktop", "desktop", {"init.sh": script})
    assert [u.summary for u in needs.unmet_needs(task, environments(tmp_path, provides))] == [
        "needs 'conda env create', not in image 'desktop', which has only 'conda activate', 'conda env list'",
        "needs 'conda info', not in image 'desktop', which has only 'conda activate', 'conda env list'",
    ]


def test_requirement_links_are_hosts_and_named_links_packages(tmp_path: Path) -> None:
    path = tmp_path / "requirements.txt"
    path.write_text("-r base.txt\ngit+https://github.com/o/r@main#egg=r\ntool @ https://files.example.com/tool.whl\n"
                    "Numpy>=1.26 # fast\n")
    ((name, built, found),) = analyse_file(path).requirements
    assert (name, built) == ("requirements.txt", False)
    assert [(n.kind, n.name, n.where) for n in found] == [
        ("host", "github.com", "line 2"), ("package", "tool", "line 3"), ("package", "numpy", "line 4")]


# -- DAG files: task code counts when the task names its DAG ---------------------------------------

EXAMPLE_DAG = '''"""Astronauts: http://api.open-notify.org in a docstring is not a call."""
from airflow.decorators import dag, task
import requests

LOGO = "https://cdn.example.com/logo.png"  # module level: evaluated when Airflow parses the file


@dag(schedule="@daily", catchup=False, doc_md="https://docs.example.com/dag")
def example_astronauts():
    @task(outlets=["https://datasets.example.com/astronauts"])  # decorator arguments: parse time
    def get_astronauts():
        return requests.get("http://api.open-notify.org/astros.json").json()

    @task.virtualenv(requirements=["x"])
    def greet():
        import urllib.request
        return urllib.request.urlopen("https://greetings.example.com").read()

    requests.head("https://parse-time.example.com")  # the @dag body runs while the DAG is built
    greet()
    get_astronauts()


example_astronauts()
'''


def dag_task(tmp_path: Path, members: dict[str, str], instruction: str = "Trigger my_dag.",
             scripts: dict[str, str] | None = None) -> Task:
    archive = project_zip({f"proj/{name}": text for name, text in members.items()})
    return spider2v_task(tmp_path, "airflow", "airflow", {"proj.zip": archive, **(scripts or {})},
                         instruction=instruction)


def hosts_of(task: Task, envs: Path) -> list[str]:
    return sorted(u.need.name for u in needs.unmet_needs(task, envs) if u.need.kind == "host")


PARSE_TIME_HOSTS = ["cdn.example.com", "datasets.example.com", "docs.example.com", "parse-time.example.com"]


def test_task_code_of_a_dag_the_task_never_names_is_no_download(tmp_path: Path) -> None:
    """Astro's template DAG calls a web API in a task of example_astronauts, which no task runs;
    what runs while Airflow parses the file (module level, decorator arguments, the @dag body)
    still counts."""
    envs = environments(tmp_path)
    task = dag_task(tmp_path, {"dags/exampledag.py": EXAMPLE_DAG, "README.md": "Runs example_astronauts."})
    assert hosts_of(task, envs) == PARSE_TIME_HOSTS


@pytest.mark.parametrize("where", ["instruction", "eval.sh", "other code", "command"])
def test_task_code_counts_when_the_task_names_its_dag(tmp_path: Path, where: str) -> None:
    envs = environments(tmp_path)
    members = {"dags/exampledag.py": EXAMPLE_DAG}
    scripts: dict[str, str] = {}
    instruction, config = "Trigger my_dag.", None
    if where == "instruction":
        instruction = "Trigger example_astronauts, then wait."
    elif where == "eval.sh":
        scripts["eval.sh"] = "astro run example_astronauts\n"
    elif where == "other code":
        members["include/run.sh"] = "airflow dags trigger example_astronauts\n"
    else:
        config = [{"type": "execute", "parameters": {"command": ["airflow", "dags", "test", "example_astronauts"]}}]
    archive = project_zip({f"proj/{name}": text for name, text in members.items()})
    task = spider2v_task(tmp_path, "airflow", "airflow", {"proj.zip": archive, **scripts},
                         config=config, instruction=instruction)
    assert hosts_of(task, envs) == sorted([*PARSE_TIME_HOSTS, "greetings.example.com", "api.open-notify.org"])
    unmet = next(u for u in needs.unmet_needs(task, envs) if u.need.name == "api.open-notify.org")
    assert str(unmet) == ("downloads from api.open-notify.org (proj.zip: proj/dags/exampledag.py line 12; "
                          "no internet here)")


CLASSIC_DAG = '''from airflow import DAG
from airflow.operators.python import PythonOperator
import requests


def fetch():
    return requests.get("https://api.classic.example.com/data")


def helper():
    return requests.get("https://helper.example.com/x")


with DAG({dag_id}, schedule=None):
    PythonOperator(task_id="fetch", python_callable=fetch)
    PythonOperator(task_id="help", python_callable=helper)
    helper()
'''


@pytest.mark.parametrize(("dag_id", "expected"), [
    ('"classic"', ["helper.example.com"]),  # fetch runs only in a run; helper is also called at parse time
    ('dag_id="classic"', ["helper.example.com"]),
    ('f"classic_{1}"', ["api.classic.example.com", "helper.example.com"]),  # which DAG it is cannot be told
])
def test_python_callables_are_task_code_unless_the_file_calls_them(tmp_path: Path, dag_id: str,
                                                                  expected: list[str]) -> None:
    envs = environments(tmp_path)
    task = dag_task(tmp_path, {"dags/classic.py": CLASSIC_DAG.format(dag_id=dag_id)})
    assert hosts_of(task, envs) == expected


def test_tasks_in_a_file_without_a_dag_always_count(tmp_path: Path) -> None:
    """A module of TaskFlow tasks that DAGs import: which DAG runs them is not in the file."""
    envs = environments(tmp_path)
    tasks = 'from airflow.decorators import task\nimport requests\n\n\n@task\ndef pull():\n' \
            '    return requests.get("https://shared.example.com/x")\n'
    task = dag_task(tmp_path, {"include/tasks.py": tasks})
    assert hosts_of(task, envs) == ["shared.example.com"]


def test_dag_ids_and_task_code_are_read_from_the_tree() -> None:
    tree = ast.parse('@dag(dag_id="renamed")\ndef f(): pass\n@airflow.decorators.dag\ndef g(): pass\n'
                     'with models.DAG("h"): pass\nx = DAG(dag_id="i", schedule=None)\n')
    assert sorted(python_code._dag_ids(tree) or ()) == ["g", "h", "i", "renamed"]
    assert python_code._dag_ids(ast.parse("DAG(schedule=None)\n")) is None
    assert python_code._dag_ids(ast.parse("@dag(dag_id=NAME)\ndef f(): pass\n")) is None
    assert python_code._dag_ids(ast.parse("import os\n")) == ()
    tree = ast.parse("@task\ndef a(): pass\n@task.bash\ndef b(): pass\n@decorators.task(retries=2)\ndef c(): pass\n"
                     "@functools.cache\ndef d(): pass\ndef e(): pass\n")
    assert sorted(f.name for f in ast.walk(tree) if id(f) in python_code._task_code(tree)) == ["a", "b", "c"]


# -- known needs: what running tasks showed ---------------------------------------------------------


def known(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "known_needs.yaml"
    path.write_text(text)
    return path


def test_known_needs_add_and_waive_for_one_task(tmp_path: Path) -> None:
    envs = environments(tmp_path)
    dag = "from airflow.decorators import dag, task\nimport requests\n\n\n@dag()\ndef my_dag():\n" \
          "    @task\n    def pull():\n        return requests.get('https://api.example.com/x')\n    pull()\n\n\nmy_dag()\n"
    task = dag_task(tmp_path, {"dags/my_dag.py": dag})
    assert hosts_of(task, envs) == ["api.example.com"]
    path = known(tmp_path, f"""
{task.key}:
  needs:
    - {{kind: host, name: wttr.in, where: "the connection the instruction creates"}}
  not_needs:
    - {{kind: host, name: api.example.com, why: "the evaluation reads the DAG's code, not its run"}}
other/task:
  needs:
    - {{kind: program, name: systemctl, where: "nowhere"}}
""")
    assert [str(u) for u in needs.unmet_needs(task, envs, path)] == [
        "downloads from wttr.in (the connection the instruction creates; no internet here)"]
    assert needs.unmet_needs(task, envs, tmp_path / "absent.yaml")[0].need.name == "api.example.com"


@pytest.mark.parametrize(("text", "message"), [
    ("- a\n", "expected a mapping of task keys"),
    ("app/t: {}\n", "must map 'needs' and/or 'not_needs'"),
    ("app/t: {extra: []}\n", "must map 'needs' and/or 'not_needs'"),
    ("app/t: {needs: {kind: host}}\n", r"app/t.needs must be a list"),
    ("app/t: {needs: [{kind: host, name: x.org}]}\n", r"each item is kind .* name and where"),
    ("app/t: {needs: [{kind: url, name: x.org, where: y}]}\n", r"each item is kind"),
    ("app/t: {not_needs: [{kind: host, name: x.org, where: y}]}\n", r"name and why"),
])
def test_known_needs_mistakes_are_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_known_needs(known(tmp_path, text))


@pytest.mark.sample
def test_known_needs_name_sample_tasks_and_waive_what_the_reading_finds() -> None:
    """Every entry of the project's file is a task of the sample, and every waiver matches a need
    its files show (a waiver that matches nothing is stale)."""
    examples = require(sample())
    entries = load_known_needs()
    assert entries
    manifest = load_manifest()
    for key, entry in entries.items():
        app, task_id = key.split("/")
        (task,) = load_tasks(examples / app / task_id / f"{task_id}.json")
        found = {(n.kind, n.name) for n in task_needs(task, manifest)}
        assert entry.not_needs <= found, key
        assert not {(n.kind, n.name) for n in entry.needs} & found, key  # declared, not found


def test_commands_run_by_su_and_sg_are_read(tmp_path: Path) -> None:
    """`su USER -c CMD` and `sg GROUP -c CMD` run CMD through a shell (the Docker install task's
    eval.sh checks `sg docker -c "docker run hello-world"`)."""
    found = needs_of(tmp_path, "eval.sh", 'output=$(sg docker -c "docker run hello-world" | grep Hello)\n'
                                          "su postgres -c 'createdb shop'\n")
    assert sorted((n, w) for k, n, w in found if k == "program") == [
        ("createdb", "line 2"), ("docker", "line 1"), ("grep", "line 1"), ("sg", "line 1"), ("su", "line 2")]
