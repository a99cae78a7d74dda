# %% open a terminal in the home folder
from terminal import open_terminal
open_terminal("/home/user")

# %% look at the order_items table
from terminal import run
run('duckdb -readonly shop.duckdb -c "DESCRIBE order_items"')

# %% create the view with the DuckDB command line
from terminal import run
run('duckdb shop.duckdb "CREATE VIEW shipped_revenue AS SELECT i.product_id, SUM(i.quantity * i.unit_price) AS revenue '
    "FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE o.status = 'shipped' GROUP BY i.product_id\"",
    process="duckdb shop.duckdb")

# %% close the terminal, switch to Chromium, click into the notebook's code cell and run it
from desktop import focus
from jupyter_ui import run_first_cell
from terminal import close_terminal
close_terminal()
focus("JupyterLab")
run_first_cell()

# %% query the view from the notebook and write the CSV
pyautogui.typewrite(
    "con = duckdb.connect('shop.duckdb', read_only=True)\n"
    'top = con.sql("SELECT p.name, p.category, ROUND(r.revenue, 2) AS revenue FROM shipped_revenue r '
    'JOIN products p USING (product_id) ORDER BY r.revenue DESC LIMIT 5").df()\n'
    "con.close()\n"
    "top.to_csv('top_products.csv', index=False)",
    interval=0.01,
)

# %% run the cell and wait for the file
from jupyter_ui import run_until
run_until("/home/user/top_products.csv")

# %% save the notebook
from jupyter_ui import save_until
save_until("/home/user/top_products.ipynb", "top_products.csv")

# %%
DONE
