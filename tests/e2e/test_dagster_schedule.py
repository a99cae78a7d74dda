"""A schedule switched on in the UI of `dagster dev` is RUNNING for `dagster schedule list`, in
the dagster image, as it was for the Spider2-V tasks' Dagster (1.7).

The tasks 215615ac and 253375e9 (`dagster dev -f dagster_migration.py`, then
`dagster schedule list -f dagster_migration.py`) and 8cc7f3ef and 933b74ab (`dagster dev` in a
project folder, then `dagster schedule list` there) have the agent turn the schedule on with the
UI's "Running" toggle, and their eval scripts grep the CLI's list for RUNNING. The list looks a
stored state up by the origin of its own load of the code location; Dagster 1.12's `dagster dev`
serves the location from a shared code server at a random socket, and the UI stored the state
under that origin, so the list printed STOPPED. The image sets
DAGSTER_CLI_DEV_USE_LEGACY_CODE_SERVER_BEHAVIOR=1 (the Dockerfile says why).
"""

from __future__ import annotations

import subprocess

import pytest

from pytest_spider2v.environments.snapshots import image_name

pytestmark = pytest.mark.e2e

DEFINITIONS = """\
from dagster import Definitions, ScheduleDefinition, asset, define_asset_job

@asset
def numbers():
    return [1, 2, 3]

numbers_job = define_asset_job("numbers_job", selection="numbers")
defs = Definitions(assets=[numbers], jobs=[numbers_job],
                   schedules=[ScheduleDefinition(job=numbers_job, cron_schedule="0 * * * *")])
"""

#: Waits for the schedule in the web server's workspace, then sends the mutation the UI's
#: "Running" toggle sends (StartThisSchedule) and prints the state it answers.
TOGGLE = """\
import json, sys, time, urllib.request
location = sys.argv[1]
def gql(query, variables=None):
    request = urllib.request.Request("http://127.0.0.1:3000/graphql", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"query": query, "variables": variables or {}}).encode())
    return json.load(urllib.request.urlopen(request, timeout=60))["data"]
LIST = "{ workspaceOrError { ... on Workspace { locationEntries { name locationOrLoadError { __typename "\\
       "... on RepositoryLocation { repositories { schedules { name } } } } } } } }"
deadline = time.time() + 240
while True:
    try:
        entries = gql(LIST)["workspaceOrError"]["locationEntries"]
        if any(s["name"] == "numbers_job_schedule" for e in entries if e["name"] == location
               for r in (e["locationOrLoadError"] or {}).get("repositories", []) for s in r["schedules"]):
            break
    except OSError:
        pass
    if time.time() > deadline:
        sys.exit("the web server never showed numbers_job_schedule")
    time.sleep(1)
START = "mutation StartThisSchedule($s: ScheduleSelector!) { startSchedule(scheduleSelector: $s) { "\\
        "__typename ... on ScheduleStateResult { scheduleState { status } } ... on PythonError { message } } }"
result = gql(START, {"s": {"repositoryLocationName": location, "repositoryName": "__repository__",
                           "scheduleName": "numbers_job_schedule"}})["startSchedule"]
print("UI:", result.get("scheduleState", result))
"""

#: layout -> (shell lines that write the code and start `dagster dev`, the location's name, the
#: eval scripts' list command, run from the same folder)
LAYOUTS = {
    "python file (215615ac)": (
        f"cat > defs.py <<'EOF'\n{DEFINITIONS}EOF\n"
        "dagster dev -f defs.py -p 3000 >dev.log 2>&1 &\n",
        "defs.py",
        "dagster schedule list -f defs.py",
    ),
    "project folder (8cc7f3ef)": (
        "mkdir hourly_numbers && printf '[tool.dagster]\\nmodule_name = \"hourly_numbers\"\\n' > pyproject.toml\n"
        f"cat > hourly_numbers/__init__.py <<'EOF'\n{DEFINITIONS}EOF\n"
        "dagster dev -p 3000 >dev.log 2>&1 &\n",
        "hourly_numbers",
        "dagster schedule list",
    ),
}


def built(image: str) -> bool:
    return subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode == 0


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_schedule_turned_on_in_the_ui_of_dagster_dev_is_running_for_the_cli(layout: str) -> None:
    image = image_name("dagster")
    if not built(image):
        pytest.skip(f"{image} is not built")
    start, location, list_command = LAYOUTS[layout]
    script = (
        "set -e\n"
        "source /home/user/anaconda3/etc/profile.d/conda.sh && conda activate dagster\n"
        "mkdir -p /tmp/project && cd /tmp/project\n"
        f"{start}"
        f"cat > /tmp/toggle.py <<'EOF'\n{TOGGLE}EOF\n"
        f"python3 /tmp/toggle.py {location} || {{ tail -n 30 dev.log; exit 1; }}\n"
        f"echo '--- {list_command}'\n"
        f"{list_command} 2>/dev/null\n"
    )
    result = subprocess.run(["docker", "run", "--rm", "--network", "none", image, "bash", "-c", script],
                            capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "UI: {'status': 'RUNNING'}" in result.stdout, output
    listed = result.stdout.split(f"--- {list_command}\n", 1)[1]
    assert "Schedule: numbers_job_schedule [RUNNING]" in listed, output
