# Give the task of the DAG task_today the documentation README.md describes, then run the DAG.
# README.md (~/projects/task_today) gives the Markdown text, named doc_md_doc, between triple
# quotes; dags/task_today.py defines task_today with one TaskFlow task, tell_me_what_to_do. A
# task's documentation is its doc_md: the text goes into the DAG file as doc_md_doc, above the
# DAG, and the @task decorator gets doc_md=doc_md_doc. Then, once Airflow has parsed the file
# again, the DAG is unpaused and triggered from the DAGs list. (Its task asks a web API for an
# activity: the run fails here, without the internet, and its documentation shows all the same.)
# %% read the documentation from README.md and add it to dags/task_today.py
import re
from pathlib import Path
project = Path.home() / "projects" / "task_today"
readme = (project / "README.md").read_text()
name, text = re.search(r'name: "(\w+)"\s*:\s*"""(.*?)"""', readme, re.S).groups()
dag_file = project / "dags" / "task_today.py"
source = dag_file.read_text()
source = source.replace("@dag(", f'{name} = """{text}"""\n\n@dag(', 1)
source = re.sub(r"@task\b(\(\))?", f"@task(doc_md={name})", source, count=1)
dag_file.write_text(source)
print(source)

# %% once Airflow has parsed the new file, reload the DAGs list and unpause task_today
from airflow_dags import unpause, wait_parsed
from airflow_ui import api
from desktop import until
until(lambda: api("dags/task_today/tasks/tell_me_what_to_do").get("doc_md"), 80, "the task's doc_md", every=1)
wait_parsed("task_today")
unpause("task_today")

# %% trigger it from its row, and wait until the run has finished
from airflow_dags import trigger
from airflow_ui import wait_run
trigger("task_today")
print(wait_run("task_today"))

# %%
DONE
