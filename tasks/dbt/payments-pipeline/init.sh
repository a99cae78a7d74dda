#!/bin/bash
# Unpack the bakery_payments dbt project (a seed and nothing else) and install its profile.
set -euo pipefail
mkdir -p ~/.dbt ~/projects
cd ~/projects
unzip -oq ~/bakery_payments.zip
rm -f ~/bakery_payments.zip
mv bakery_payments/profiles.yml ~/.dbt/profiles.yml
