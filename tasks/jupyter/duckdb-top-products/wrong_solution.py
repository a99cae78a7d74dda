# Wrong on purpose: the view counts the items of every order, not only of shipped ones
# %% based-on: solution.py
# %% replace 3: create the view with the DuckDB command line, without the status filter
from terminal import run
run('duckdb shop.duckdb "CREATE VIEW shipped_revenue AS SELECT i.product_id, SUM(i.quantity * i.unit_price) AS revenue '
    'FROM order_items i JOIN orders o ON o.order_id = i.order_id GROUP BY i.product_id"',
    process="duckdb shop.duckdb")
