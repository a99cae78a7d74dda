#!/bin/bash
# Unpack the report_jobs Dagster project into ~/projects and name it as the project the
# `dagster` service serves.
set -euo pipefail
mkdir -p ~/projects ~/.spider2v
cd ~/projects
unzip -oq ~/report_jobs.zip
rm -f ~/report_jobs.zip
echo /home/user/projects/report_jobs > ~/.spider2v/dagster_project
