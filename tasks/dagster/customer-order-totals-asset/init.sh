#!/bin/bash
# Unpack the shop_warehouse Dagster project (assets customers and orders, CSV files in data/)
# into ~/projects and name it as the project the `dagster` service serves.
set -euo pipefail
mkdir -p ~/projects ~/.spider2v
cd ~/projects
unzip -oq ~/shop_warehouse.zip
rm -f ~/shop_warehouse.zip
echo /home/user/projects/shop_warehouse > ~/.spider2v/dagster_project
