#!/bin/bash
# Checks the final state of the shop database: orphan orders removed (and nothing else), keys,
# constraints (tried with inserts that are rolled back), the order_date index and the analyst
# role (logs in with its password, may read, may not write). Prints one line per failed check
# and "succeed" when all pass.
q() { psql -X -A -t -q -d shop -c "$1" 2>&1; }
# try SQL in a transaction that is rolled back; prints ok or the error
try() { psql -X -A -t -q -v ON_ERROR_STOP=1 -d shop -c "BEGIN; $1; ROLLBACK;" >/dev/null 2>/tmp/spider2v-try.err && echo ok || cat /tmp/spider2v-try.err; }
fail=0
no() { echo "failed: $1"; fail=1; }

[ "$(q "SELECT count(*) || ':' || sum(id) FROM orders")" = "27:3114" ] || no "orders should keep exactly the 27 orders of existing customers ($(q "SELECT count(*) || ':' || sum(id) FROM orders"))"
for t in customers orders; do
  [ "$(q "SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indrelid = '$t'::regclass AND i.indisprimary AND i.indnatts = 1 AND a.attname = 'id'")" = "1" ] || no "$t.id is not the primary key"
done
[ "$(q "SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indrelid = 'customers'::regclass AND i.indisunique AND i.indnatts = 1 AND a.attname = 'email'")" -ge 1 ] || no "customers.email is not unique"
[ "$(q "SELECT count(*) FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] WHERE c.contype = 'f' AND c.conrelid = 'orders'::regclass AND c.confrelid = 'customers'::regclass AND array_length(c.conkey, 1) = 1 AND a.attname = 'customer_id'")" = "1" ] || no "no foreign key orders.customer_id -> customers"
r=$(try "INSERT INTO orders (id, customer_id, order_date, amount, status) VALUES (9001, 99, '2024-07-01', 10, 'new')"); [[ "$r" == *"foreign key"* ]] || no "an order of an unknown customer is accepted ($r)"
r=$(try "INSERT INTO orders (id, customer_id, order_date, amount, status) VALUES (9002, 1, '2024-07-01', -0.01, 'new')"); [[ "$r" == *"check constraint"* ]] || no "a negative amount is accepted ($r)"
r=$(try "INSERT INTO orders (id, customer_id, order_date, amount, status) VALUES (9003, 1, '2024-07-01', 10, 'lost')"); [[ "$r" == *"check constraint"* ]] || no "status 'lost' is accepted ($r)"
r=$(try "INSERT INTO orders (id, customer_id, order_date, amount, status) VALUES (9004, 1, '2024-07-01', 0, 'new'), (9005, 2, '2024-07-01', 5, 'shipped'), (9006, 3, '2024-07-01', 5, 'cancelled')"); [ "$r" = ok ] || no "valid orders are rejected ($r)"
[ "$(q "SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indrelid = 'orders'::regclass AND a.attname = 'order_date'")" -ge 1 ] || no "no index on orders(order_date)"
[ "$(q "SELECT count(*) FROM pg_roles WHERE rolname = 'analyst' AND rolcanlogin AND NOT rolsuper AND NOT rolcreaterole AND NOT rolcreatedb")" = "1" ] || no "no plain login role analyst"
login=$(PGPASSFILE=/dev/null PGPASSWORD=analyst2024 psql -X -A -t -h localhost -U analyst -d shop -c "SELECT (SELECT count(*) FROM orders) || ':' || (SELECT count(*) FROM customers)" 2>&1)
[ "$login" = "27:12" ] || no "analyst cannot log in with its password and read both tables ($login)"
[ "$(q "SELECT count(*) FROM (VALUES ('customers'), ('orders')) t(n), (VALUES ('INSERT'), ('UPDATE'), ('DELETE'), ('TRUNCATE')) p(p) WHERE has_table_privilege('analyst', t.n, p.p)")" = "0" ] || no "analyst may change customers or orders"
[ "$fail" = 0 ] && echo succeed
exit 0
