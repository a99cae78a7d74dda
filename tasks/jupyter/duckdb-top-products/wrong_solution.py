# Wrong on purpose: the view counts the items of every order, not only of shipped ones
# %% based-on: solution.py
# %% replace 2: look at the order_items table, then create the view with the DuckDB command line
pyautogui.typewrite('duckdb -readonly shop.duckdb -c "DESCRIBE order_items"\n', interval=0.01)
time.sleep(0.5)
pyautogui.typewrite(
    'duckdb shop.duckdb "CREATE VIEW shipped_revenue AS SELECT i.product_id, SUM(i.quantity * i.unit_price) AS revenue '
    "FROM order_items i JOIN orders o ON o.order_id = i.order_id GROUP BY i.product_id\"\n",
    interval=0.01,
)
