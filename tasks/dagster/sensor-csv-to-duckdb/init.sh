#!/bin/bash
# Unpack the sensor_ingest Dagster project (CSV exports in data/, an assets.py without assets)
# into ~/projects and name it as the project the `dagster` service serves.
set -euo pipefail
mkdir -p ~/projects ~/.spider2v
cd ~/projects
unzip -oq ~/sensor_ingest.zip
rm -f ~/sensor_ingest.zip
echo /home/user/projects/sensor_ingest > ~/.spider2v/dagster_project
