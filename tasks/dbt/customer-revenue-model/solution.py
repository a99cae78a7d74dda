# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% write models/marts/customer_revenue.sql with cat (no heredoc: pyautogui types "<" as ">" here)
from terminal import cat_into, run
run("mkdir -p models/marts")
cat_into("models/marts/customer_revenue.sql",
         "{{ config(materialized='table') }}\n"
         "select c.customer_id, c.customer_name,\n"
         "count(o.order_id) as order_count,\n"
         "coalesce(sum(o.amount), 0) as total_revenue\n"
         "from {{ ref('stg_customers') }} c\n"
         "left join {{ ref('stg_orders') }} o\n"
         "on o.customer_id = c.customer_id and o.status = 'completed'\n"
         "group by c.customer_id, c.customer_name\n")

# %% build the model and wait until dbt has finished
from terminal import run
run("dbt run --select customer_revenue", process="dbt run")

# %%
DONE
