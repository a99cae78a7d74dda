# %% Admin > Variables > Add
from airflow_ui import click
click("link", "Admin")
click("link", "Variables")
click("link", "Add +")

# %% key low_stock_threshold, value 30, save
from airflow_ui import api, click
click("entry", "Key *")
pyautogui.typewrite("low_stock_threshold", interval=0.02)
click("entry", "Val")
pyautogui.typewrite("30", interval=0.02)
click("push button", "Save", contains=True)
for _ in range(60):
    try:
        api("variables/low_stock_threshold")
        break
    except Exception:
        time.sleep(0.5)

# %% back to the DAGs list and trigger low_stock_alert
from airflow_ui import click, find
click("link", "DAGs")
_, y = find("link", "low_stock_alert")
click("section", "Trigger DAG", near_y=y)
click("push button", "Trigger DAG")

# %% wait until the run has finished
from airflow_ui import wait_run
print(wait_run("low_stock_alert"))

# %%
DONE
