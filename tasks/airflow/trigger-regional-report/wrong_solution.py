# Wrong on purpose: triggers the DAG with the plain "Trigger DAG" button, so the run uses the default region EMEA instead of APAC
# %% based-on: solution.py
# %% replace 2-3: trigger without a configuration
from airflow_dags import trigger
trigger("regional_sales_report")
