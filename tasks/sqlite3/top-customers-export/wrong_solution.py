# Wrong on purpose: ranks customers by their all-time totals: the query has no 2024 filter on order_date
# %% based-on: solution.py
# %% replace 4: the query
pyautogui.typewrite(
    "SELECT c.name, ROUND(SUM(o.amount), 2) AS total_amount FROM orders o "
    "JOIN customers c ON c.id = o.customer_id "
    "GROUP BY c.id ORDER BY total_amount DESC LIMIT 5;\n",
    interval=0.02,
)
