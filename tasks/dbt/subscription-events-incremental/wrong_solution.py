# Wrong on purpose: declares the model incremental but leaves out the is_incremental() filter, so every run reprocesses all events
# %% based-on: solution.py
# %% insert-before 5: take the is_incremental() block out of the model again
from terminal import run
run("sed -i '/is_incremental/,/endif/d' models/marts/fct_events.sql")
