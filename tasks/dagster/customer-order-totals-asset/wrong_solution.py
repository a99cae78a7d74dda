# Wrong on purpose: an inner join drops the customers without orders
# %% based-on: solution.py
# %% replace 3: type the asset above "defs = Definitions(" (four lines up from the last line); gedit copies the previous line's indentation, so each line first selects it (Shift+Home) and types over it
pyautogui.hotkey("ctrl", "end")
pyautogui.press("up", presses=4)
pyautogui.press("home")
CODE = '''
@asset(deps=[customers, orders], description="Orders and revenue per customer.")
def customer_order_totals(duckdb: DuckDBResource) -> None:
    with duckdb.get_connection() as conn:
        conn.execute(
            "create or replace table customer_order_totals as "
            "select c.customer_id, c.name, count(o.order_id) as order_count, "
            "coalesce(sum(o.amount), 0) as total_amount "
            "from customers c inner join orders o on o.customer_id = c.customer_id "
            "group by c.customer_id, c.name"
        )


'''
for line in CODE[1:].split("\n")[:-1]:
    pyautogui.hotkey("shift", "home")
    pyautogui.typewrite(line + "\n", interval=0.01)
