# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% model folders, and gedit on the staging model
from gedit import open_file
from terminal import run
run("mkdir -p models/staging models/marts")
open_file("models/staging/stg_payments.sql")

# %% write the staging view, save it and close gedit
from gedit import save_and_close
pyautogui.typewrite(
    "{{ config(materialized='view') }}\n"
    "select payment_id, order_id,\n"
    "cast(paid_at as date) as payment_date,\n"
    "lower(method) as method,\n"
    "amount_cents / 100.0 as amount\n"
    "from {{ ref('raw_payments') }}\n"
    "where status = 'success'\n",
    interval=0.01,
)
save_and_close("stg_payments.sql")

# %% open the daily revenue model in gedit from the terminal
from gedit import open_file
from terminal import focus_terminal
focus_terminal(settle=0.5)
open_file("models/marts/daily_revenue.sql")

# %% write the daily revenue table, save it and close gedit
from gedit import save_and_close
pyautogui.typewrite(
    "{{ config(materialized='table') }}\n"
    "select payment_date,\n"
    "count(*) as payment_count,\n"
    "sum(amount) as revenue\n"
    "from {{ ref('stg_payments') }}\n"
    "group by payment_date\n",
    interval=0.01,
)
save_and_close("daily_revenue.sql")

# %% declare the tests in models/schema.yml, typed into cat, which keeps the YAML indentation exact
from terminal import cat_into, focus_terminal
focus_terminal(settle=0.5)
cat_into("models/schema.yml",
         "version: 2\n"
         "models:\n"
         "  - name: stg_payments\n"
         "    columns:\n"
         "      - name: payment_id\n"
         "        data_tests: [unique, not_null]\n"
         "  - name: daily_revenue\n"
         "    columns:\n"
         "      - name: payment_date\n"
         "        data_tests: [unique, not_null]\n")

# %% build seed, models and tests, and wait until dbt has finished
from terminal import run
run("dbt build", process="dbt build")

# %%
DONE
