#!/bin/bash
# Unpack the retail_ops Dagster project into ~/projects and name it as the project the
# `dagster` service serves.
set -euo pipefail
mkdir -p ~/projects ~/.spider2v
cd ~/projects
unzip -oq ~/retail_ops.zip
rm -f ~/retail_ops.zip
echo /home/user/projects/retail_ops > ~/.spider2v/dagster_project
