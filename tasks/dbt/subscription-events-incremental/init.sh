#!/bin/bash
# Unpack the subscriptions dbt project (raw events seed and a staging model) and install its
# profile; the plans price list waits in ~/Downloads/plans.csv, outside the project.
set -euo pipefail
mkdir -p ~/.dbt ~/projects ~/Downloads
cd ~/projects
unzip -oq ~/subscriptions.zip
rm -f ~/subscriptions.zip
mv subscriptions/profiles.yml ~/.dbt/profiles.yml
