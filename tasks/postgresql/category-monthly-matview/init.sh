#!/bin/bash
# Create the retail star schema (dim_product, dim_store, dim_date, fact_sales) from retail.sql;
# PostgreSQL is already running.
set -euo pipefail
dropdb --if-exists retail
createdb retail
psql -X -q -v ON_ERROR_STOP=1 -d retail -f ~/retail.sql
rm -f ~/retail.sql
