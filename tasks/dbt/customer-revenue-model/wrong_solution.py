# Wrong on purpose: materialises customer_revenue as a view instead of a table (the rows are right)
# %% based-on: solution.py
# %% replace 2: write models/marts/customer_revenue.sql with cat (no heredoc: pyautogui types "<" as ">" here)
pyautogui.typewrite(
    "mkdir -p models/marts && cat > models/marts/customer_revenue.sql\n"
    "{{ config(materialized='view') }}\n"
    "select c.customer_id, c.customer_name,\n"
    "count(o.order_id) as order_count,\n"
    "coalesce(sum(o.amount), 0) as total_revenue\n"
    "from {{ ref('stg_customers') }} c\n"
    "left join {{ ref('stg_orders') }} o\n"
    "on o.customer_id = c.customer_id and o.status = 'completed'\n"
    "group by c.customer_id, c.customer_name\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "d")
time.sleep(0.5)
