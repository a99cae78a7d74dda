# Wrong on purpose: leaves month as the TIMESTAMP that date_trunc returns instead of casting it to DATE
# %% based-on: solution.py
# %% replace 5: the reporting view
pyautogui.typewrite(
    "CREATE VIEW monthly_category_sales AS SELECT date_trunc('month', f.sale_date) AS month, "
    "p.category, sum(f.quantity) AS units, round(sum(f.amount), 2) AS revenue "
    "FROM fact_sales f JOIN dim_product p ON p.product_id = f.product_id GROUP BY 1, 2;\n",
    interval=0.01,
)
time.sleep(0.5)
