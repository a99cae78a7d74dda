# %% focus Chromium
from desktop import focus
focus("Chromium", settle=0.5)

# %% open SQL Lab
from superset_ui import sqllab
sqllab()

# %% replace the editor's text with the query and run it
from superset_sqllab import run_query
run_query("SELECT p.category AS category, SUM(o.revenue) AS total_revenue FROM orders o "
          "JOIN products p ON p.product_id = o.product_id GROUP BY p.category ")

# %% Save > Save dataset, named category_revenue; "Save & explore" creates it and opens a new tab
from superset_sqllab import save_dataset
save_dataset("category_revenue")

# %%
DONE
