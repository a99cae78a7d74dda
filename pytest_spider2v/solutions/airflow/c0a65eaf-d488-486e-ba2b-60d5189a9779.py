# The verbose variant of fe676fc0 (sqlite_conn, run sql_data_quality, the failed task's log page).
# %% based-on: fe676fc0-fbe7-4d1e-a8d5-b0234ee9730b.py
