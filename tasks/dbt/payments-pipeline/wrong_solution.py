# Wrong on purpose: stg_payments keeps every payment, also the failed and refunded ones (no status = 'success' filter)
# %% based-on: solution.py
# %% replace 3: write the staging view and save it
pyautogui.typewrite(
    "{{ config(materialized='view') }}\n"
    "select payment_id, order_id,\n"
    "cast(paid_at as date) as payment_date,\n"
    "lower(method) as method,\n"
    "amount_cents / 100.0 as amount\n"
    "from {{ ref('raw_payments') }}\n",
    interval=0.01,
)
pyautogui.hotkey("ctrl", "s")
time.sleep(1)
