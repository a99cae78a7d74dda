#!/bin/bash
# Create the MariaDB database inventory with the empty table products; MariaDB is already
# running and ~/.my.cnf logs the mariadb client in as user.
set -euo pipefail
rm -f ~/Desktop/price_list.csv
mariadb -e "DROP DATABASE IF EXISTS inventory; CREATE DATABASE inventory"
mariadb inventory -e "CREATE TABLE products (
  sku VARCHAR(20) PRIMARY KEY,
  product_name VARCHAR(100) NOT NULL,
  category VARCHAR(40) NOT NULL,
  unit_price DECIMAL(10,2) NOT NULL,
  stock INT NOT NULL
)"
