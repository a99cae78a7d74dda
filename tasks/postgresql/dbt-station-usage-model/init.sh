#!/bin/bash
# Create the bikeshare database with the raw schema (stations, rides), unpack the bike_share
# dbt project into ~/projects and install its profile (postgres, schema analytics) in ~/.dbt.
# PostgreSQL is already running.
set -euo pipefail
dropdb --if-exists bikeshare
createdb bikeshare
psql -X -q -v ON_ERROR_STOP=1 -d bikeshare -f ~/bikeshare_raw.sql
rm -f ~/bikeshare_raw.sql
mkdir -p ~/.dbt ~/projects
cd ~/projects
rm -rf bike_share
unzip -oq ~/bike_share.zip
rm -f ~/bike_share.zip
mv bike_share/profiles.yml ~/.dbt/profiles.yml
