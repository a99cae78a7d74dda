# Wrong on purpose: net_revenue ignores the discount (sum of quantity * unit_price)
# %% based-on: solution.py
# %% replace 3: create the materialized view
pyautogui.typewrite(
    "CREATE MATERIALIZED VIEW public.sales_by_category_month AS "
    "SELECT p.category, s.region, d.year, d.month, COUNT(DISTINCT f.order_id) AS order_count, "
    "SUM(f.quantity) AS units, ROUND(SUM(f.quantity * f.unit_price), 2) AS net_revenue "
    "FROM fact_sales f JOIN dim_product p ON p.product_id = f.product_id "
    "JOIN dim_store s ON s.store_id = f.store_id JOIN dim_date d ON d.date_id = f.date_id "
    "GROUP BY p.category, s.region, d.year, d.month;\n",
    interval=0.01,
)
time.sleep(1)
