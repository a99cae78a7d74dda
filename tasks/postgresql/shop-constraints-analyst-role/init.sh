#!/bin/bash
# Create the shop database (customers, orders without any constraint) from shop.sql and make
# sure no analyst role is left over; PostgreSQL is already running.
set -euo pipefail
dropdb --if-exists shop
psql -X -q -d postgres -c 'DROP ROLE IF EXISTS analyst'
createdb shop
psql -X -q -v ON_ERROR_STOP=1 -d shop -f ~/shop.sql
rm -f ~/shop.sql
