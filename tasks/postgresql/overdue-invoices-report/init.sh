#!/bin/bash
# Create the billing database (table invoices) from billing.sql; PostgreSQL is already running.
set -euo pipefail
dropdb --if-exists billing
createdb billing
psql -X -q -v ON_ERROR_STOP=1 -d billing -f ~/billing.sql
rm -f ~/billing.sql
