# Complete the customers model of ~/projects/jaffle_shop as its comment asks (customer_id,
# first_name, last_name, first_order_date, most_recent_order_date, number_of_orders defaulting to
# 0), then build it from scratch: the project has no database yet, so load the seeds first.
# %% the final select's columns, in place of the placeholder comment
from dbt_cli import edit, project
edit(project("jaffle_shop") / "models/customers.sql", "        /* code here */\n", """\
        customers.customer_id,
        customers.first_name,
        customers.last_name,
        customer_orders.first_order_date,
        customer_orders.most_recent_order_date,
        coalesce(customer_orders.number_of_orders, 0) as number_of_orders
""")

# %% check the connection
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "debug")

# %% load the seeds
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "seed")

# %% dbt run
from dbt_cli import dbt, project
dbt(project("jaffle_shop"), "run")
