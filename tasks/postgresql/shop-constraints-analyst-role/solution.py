# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% connect to the shop database
pyautogui.typewrite("psql shop\n", interval=0.02)
time.sleep(1)

# %% remove the orphan orders, then add keys, constraints and the index
statements = [
    "DELETE FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id);",
    "ALTER TABLE customers ADD PRIMARY KEY (id);",
    "ALTER TABLE customers ADD CONSTRAINT customers_email_key UNIQUE (email);",
    "ALTER TABLE orders ADD PRIMARY KEY (id);",
    "ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id);",
    "ALTER TABLE orders ADD CONSTRAINT orders_amount_check CHECK (amount >= 0);",
    "ALTER TABLE orders ADD CONSTRAINT orders_status_check CHECK (status IN ('new', 'shipped', 'cancelled'));",
    "CREATE INDEX orders_order_date_idx ON orders (order_date);",
]
for statement in statements:
    pyautogui.typewrite(statement + "\n", interval=0.01)
    time.sleep(0.3)

# %% the read-only analyst role
pyautogui.typewrite("CREATE ROLE analyst LOGIN PASSWORD 'analyst2024';\n", interval=0.01)
time.sleep(0.3)
pyautogui.typewrite("GRANT SELECT ON customers, orders TO analyst;\n", interval=0.01)
time.sleep(0.5)

# %% leave psql and wait until it has quit
from terminal import run
run("\\q", process="psql shop")

# %%
DONE
