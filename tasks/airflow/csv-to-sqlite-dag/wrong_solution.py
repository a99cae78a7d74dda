# Wrong on purpose: forgets that load_csv depends on create_table (only load_csv >> count_rows), so the table may not exist when the load starts
# %% based-on: solution.py
# %% insert-after 1: drop create_table from the dependency chain with sed
from terminal import run
run("sed -i 's/create >> load >> count/load >> count/' ~/load_customers.py")
