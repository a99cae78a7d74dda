#!/bin/bash
# Create the crm database (table contacts with five contacts) from crm.sql; PostgreSQL is
# already running. The file to import is ~/Downloads/new_contacts.csv.
set -euo pipefail
dropdb --if-exists crm
createdb crm
psql -X -q -v ON_ERROR_STOP=1 -d crm -f ~/crm.sql
rm -f ~/crm.sql
