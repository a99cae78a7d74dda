# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% open the database in the duckdb shell
pyautogui.typewrite("duckdb retail.duckdb\n", interval=0.02)
time.sleep(1)

# %% the two dimensions, numbered in alphabetical order of the name
pyautogui.typewrite(
    "CREATE TABLE dim_store AS SELECT row_number() OVER (ORDER BY store_name) AS store_id, store_name, city "
    "FROM (SELECT DISTINCT store_name, store_city AS city FROM raw_sales);\n"
    "CREATE TABLE dim_product AS SELECT row_number() OVER (ORDER BY product_name) AS product_id, product_name, category "
    "FROM (SELECT DISTINCT product_name, category FROM raw_sales);\n",
    interval=0.01,
)
time.sleep(0.5)

# %% the fact table with surrogate keys and the sale amount
pyautogui.typewrite(
    "CREATE TABLE fact_sales AS SELECT r.sale_id, r.sale_date, s.store_id, p.product_id, r.quantity, "
    "r.quantity * r.unit_price AS amount FROM raw_sales r "
    "JOIN dim_store s ON s.store_name = r.store_name JOIN dim_product p ON p.product_name = r.product_name;\n",
    interval=0.01,
)
time.sleep(0.5)

# %% the reporting view (month as a DATE)
pyautogui.typewrite(
    "CREATE VIEW monthly_category_sales AS SELECT CAST(date_trunc('month', f.sale_date) AS DATE) AS month, "
    "p.category, sum(f.quantity) AS units, round(sum(f.amount), 2) AS revenue "
    "FROM fact_sales f JOIN dim_product p ON p.product_id = f.product_id GROUP BY 1, 2;\n",
    interval=0.01,
)
time.sleep(0.5)

# %% look at the view, leave the shell and wait until duckdb has closed the file
from terminal import run
run("SELECT * FROM monthly_category_sales ORDER BY month, category;\n.quit", process="duckdb retail.duckdb")

# %%
DONE
