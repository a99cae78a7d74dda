#!/bin/bash
# Creates ~/warehouse/retail.duckdb with the raw_sales table loaded from the task's CSV file.
set -euo pipefail
mkdir -p ~/warehouse
rm -f ~/warehouse/retail.duckdb ~/warehouse/retail.duckdb.wal
duckdb ~/warehouse/retail.duckdb "CREATE TABLE raw_sales AS SELECT * FROM read_csv('/home/user/raw_sales.csv', header = true,
  columns = {'sale_id': 'INTEGER', 'sale_date': 'DATE', 'store_name': 'VARCHAR', 'store_city': 'VARCHAR',
             'product_name': 'VARCHAR', 'category': 'VARCHAR', 'quantity': 'INTEGER', 'unit_price': 'DECIMAL(8,2)'})"
rm -f ~/raw_sales.csv
