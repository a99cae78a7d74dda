# %% focus the terminal once it is up
from terminal import focus_terminal
focus_terminal()

# %% the price list becomes a seed; open the new model in gedit
from gedit import open_file
from terminal import run
run("cp ~/Downloads/plans.csv seeds/plans.csv && mkdir -p models/marts")
open_file("models/marts/fct_events.sql")

# %% write the incremental model, save it and close gedit
from gedit import save_and_close
pyautogui.typewrite(
    "{{ config(materialized='incremental', unique_key='event_id') }}\n"
    "select e.event_id, e.account_id, e.event_type, e.event_at, e.plan_code,\n"
    "p.plan_name, p.monthly_price\n"
    "from {{ ref('stg_events') }} e\n"
    "join {{ ref('plans') }} p on p.plan_code = e.plan_code\n"
    "{% if is_incremental() %}\n"
    "where e.event_at > (select max(event_at) from {{ this }})\n"
    "{% endif %}\n",
    interval=0.01,
)
save_and_close("fct_events.sql")

# %% declare the tests in models/marts/schema.yml, typed into cat, which keeps the YAML indentation exact
from terminal import cat_into, focus_terminal
focus_terminal(settle=0.5)
cat_into("models/marts/schema.yml",
         "version: 2\n"
         "models:\n"
         "  - name: fct_events\n"
         "    columns:\n"
         "      - name: event_id\n"
         "        data_tests: [unique, not_null]\n"
         "      - name: event_type\n"
         "        data_tests:\n"
         "          - accepted_values:\n"
         "              values: ['signup', 'upgrade', 'downgrade', 'cancel']\n"
         "      - name: plan_code\n"
         "        data_tests:\n"
         "          - relationships:\n"
         "              to: ref('plans')\n"
         "              field: plan_code\n"
         "seeds:\n"
         "  - name: plans\n"
         "    columns:\n"
         "      - name: plan_code\n"
         "        data_tests: [unique, not_null]\n")

# %% build seeds, models and tests, and wait until dbt has finished
from terminal import run
run("dbt build", process="dbt build")

# %%
DONE
