# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% connect to the warehouse
pyautogui.typewrite("psql retail\n", interval=0.02)
time.sleep(1)

# %% create the materialized view
pyautogui.typewrite(
    "CREATE MATERIALIZED VIEW public.sales_by_category_month AS "
    "SELECT p.category, s.region, d.year, d.month, COUNT(DISTINCT f.order_id) AS order_count, "
    "SUM(f.quantity) AS units, ROUND(SUM(f.quantity * f.unit_price * (1 - f.discount)), 2) AS net_revenue "
    "FROM fact_sales f JOIN dim_product p ON p.product_id = f.product_id "
    "JOIN dim_store s ON s.store_id = f.store_id JOIN dim_date d ON d.date_id = f.date_id "
    "GROUP BY p.category, s.region, d.year, d.month;\n",
    interval=0.01,
)
time.sleep(1)

# %% leave psql and wait until it has quit
from terminal import run
run("\\q", process="psql retail")

# %%
DONE
