#!/bin/bash
# Prints "succeed" when the loaded report_jobs code location has a schedule nightly_refresh
# for the job refresh_reports_job on cron "15 3 * * *" and the schedule is running (turned on),
# asked from the running Dagster web server; else "failed: why".
curl -sf -m 30 -H 'Content-Type: application/json' http://localhost:3000/graphql \
  -d '{"query":"{ workspaceOrError { ... on Workspace { locationEntries { name locationOrLoadError { __typename ... on RepositoryLocation { repositories { schedules { name cronSchedule pipelineName scheduleState { status } } } } } } } } }"}' \
  | python3 -c '
import json, sys
try:
    entries = json.load(sys.stdin)["data"]["workspaceOrError"]["locationEntries"]
except Exception as exc:
    print("failed: no answer from the Dagster web server:", exc); sys.exit(0)
schedules = [s for e in entries if (e["locationOrLoadError"] or {}).get("__typename") == "RepositoryLocation"
             for r in e["locationOrLoadError"]["repositories"] for s in r["schedules"]]
found = [s for s in schedules if s["name"] == "nightly_refresh"]
if not found:
    print("failed: no schedule nightly_refresh in the loaded definitions (found: %s)" % [s["name"] for s in schedules])
    sys.exit(0)
s = found[0]
if " ".join(s["cronSchedule"].split()) != "15 3 * * *":
    print("failed: cron schedule is %r" % s["cronSchedule"])
elif s["pipelineName"] != "refresh_reports_job":
    print("failed: the schedule runs %r" % s["pipelineName"])
elif s["scheduleState"]["status"] != "RUNNING":
    print("failed: the schedule is %s, not running" % s["scheduleState"]["status"])
else:
    print("succeed")
'
