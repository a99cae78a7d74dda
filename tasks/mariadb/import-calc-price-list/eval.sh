#!/bin/bash
# Prints "succeed" when ~/Desktop/price_list.csv is a CSV export of the sheet (header row
# first); the rows of inventory.products are compared by the database_query getter.
CSV=/home/user/Desktop/price_list.csv
if [ ! -f "$CSV" ]; then echo "failed: $CSV does not exist"; exit 0; fi
if ! head -n 1 "$CSV" | tr -d '\r"' | grep -qx 'sku,product_name,category,unit_price,stock'; then
  echo "failed: $CSV does not start with the header row of the sheet"; exit 0
fi
echo succeed
