# %% Admin > Variables > Add
from airflow_ui import open_add_form
open_add_form("Variables", "Key *")

# %% key low_stock_threshold, value 30, save
from airflow_ui import api, click
from desktop import until
click("entry", "Key *")
pyautogui.typewrite("low_stock_threshold", interval=0.02)
click("entry", "Val")
pyautogui.typewrite("30", interval=0.02)
click("push button", "Save", contains=True)
def saved():
    try:
        return api("variables/low_stock_threshold")
    except Exception:  # 404 until the form is saved
        return None
until(saved, 30, "the Variable low_stock_threshold")

# %% back to the DAGs list and trigger low_stock_alert
from airflow_dags import trigger
from airflow_ui import click
click("link", "DAGs")
trigger("low_stock_alert")

# %% wait until the run has finished
from airflow_ui import wait_run
print(wait_run("low_stock_alert"))

# %%
DONE
