#!/bin/bash
# Create the sales database (table deals) from sales.sql; MariaDB is already running and
# ~/.my.cnf logs the mariadb client in as user.
set -euo pipefail
mariadb -e 'DROP DATABASE IF EXISTS sales; CREATE DATABASE sales'
mariadb sales < ~/sales.sql
rm -f ~/sales.sql
