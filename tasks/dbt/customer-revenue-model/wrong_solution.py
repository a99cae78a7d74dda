# Wrong on purpose: materialises customer_revenue as a view instead of a table (the rows are right)
# %% based-on: solution.py
# %% insert-after 2: change the model's materialization to a view with sed
from terminal import run
run("sed -i \"s/materialized='table'/materialized='view'/\" models/marts/customer_revenue.sql")
