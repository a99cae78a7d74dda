# Wrong on purpose: leaves month as the TIMESTAMP that date_trunc returns instead of casting it to DATE
# focus the terminal once it is up
import subprocess
for _ in range(150):
    if "gnome-terminal-server" in subprocess.run(["wmctrl", "-lx"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-x", "-a", "gnome-terminal-server.Gnome-terminal"])
time.sleep(1.5)

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

# %% the reporting view
pyautogui.typewrite(
    "CREATE VIEW monthly_category_sales AS SELECT date_trunc('month', f.sale_date) AS month, "
    "p.category, sum(f.quantity) AS units, round(sum(f.amount), 2) AS revenue "
    "FROM fact_sales f JOIN dim_product p ON p.product_id = f.product_id GROUP BY 1, 2;\n",
    interval=0.01,
)
time.sleep(0.5)

# %% look at the view, leave the shell and wait until duckdb has closed the file
import subprocess
pyautogui.typewrite("SELECT * FROM monthly_category_sales ORDER BY month, category;\n.quit\n", interval=0.02)
for _ in range(100):
    if subprocess.run(["pgrep", "-x", "duckdb"], capture_output=True).returncode != 0:
        break
    time.sleep(0.1)

# %%
DONE
