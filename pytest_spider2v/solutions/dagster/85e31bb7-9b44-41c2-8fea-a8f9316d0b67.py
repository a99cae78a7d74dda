# The abstract variant of 8a09d205 (a Dagster asset "customers" after the dbt project jaffle_shop,
# materialized in the Dagster UI): the same steps, and the same check. Its instruction points at
# jaffle_shop/customers_schema.yml (not at ~/dbt-dagster-project/..., as it says), which documents
# the columns of jaffle_shop's customers model; it calls the lifetime value total_order_amount,
# whereas the model, and the table the check compares with, call it customer_lifetime_value, the
# name the verbose variant's tutorial gives.
# %% based-on: 8a09d205-3f9c-44bc-b6d2-32f7ca518a5b.py
