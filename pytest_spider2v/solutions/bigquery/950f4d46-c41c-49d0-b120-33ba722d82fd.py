# Delete the dataset customer_orders, which the instruction says is no longer used, with its
# tables; the other datasets of the project stay.
# %% list the project's datasets
from bigquery_api import client
print([dataset.dataset_id for dataset in client().list_datasets()])

# %% delete customer_orders with its contents
from bigquery_api import client
bq = client()
bq.delete_dataset("customer_orders", delete_contents=True)
print([dataset.dataset_id for dataset in bq.list_datasets()])
