# Wrong on purpose: sums the quantity instead of the revenue per category
# %% based-on: solution.py
# %% replace 3: replace the editor's text with a query that sums the quantity, and run it
from superset_sqllab import run_query
run_query("SELECT p.category AS category, SUM(o.quantity) AS total_revenue FROM orders o "
          "JOIN products p ON p.product_id = o.product_id GROUP BY p.category ")
