# Wrong on purpose: stg_payments keeps every payment, also the failed and refunded ones (no status = 'success' filter)
# %% based-on: solution.py
# %% insert-before 7: take the status filter out of the staging view again
from terminal import run
run("sed -i '/status = .success./d' models/staging/stg_payments.sql")
