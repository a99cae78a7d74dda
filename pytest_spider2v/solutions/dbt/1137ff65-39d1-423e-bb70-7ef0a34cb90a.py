# Materialize the two example models of ~/projects/materialize_test as tables, then run them. The
# folder's models are views by dbt_project.yml, and my_first_dbt_model also says so in its own
# config() block, which wins over the project file: both must say table. Each file is opened in
# gedit from the terminal (in the project folder), changed with gedit's search and the keyboard,
# saved and closed; then `dbt run` is typed into the terminal.
# route: gui: models built and run
# %% in the terminal, open dbt_project.yml in gedit
from terminal import focus_terminal
from gedit import open_file
focus_terminal()
open_file("dbt_project.yml")

# %% the models/test folder is materialized as tables: save and close
from gedit import replace_text, save_and_close
replace_text("+materialized: view", "+materialized: table")
save_and_close("dbt_project.yml")

# %% open models/test/my_first_dbt_model.sql in gedit
from terminal import focus_terminal
from gedit import open_file
focus_terminal()
open_file("models/test/my_first_dbt_model.sql")

# %% its own config() says table too: save and close
from gedit import replace_text, save_and_close
replace_text("materialized='view'", "materialized='table'")
save_and_close("my_first_dbt_model.sql")

# %% dbt run, typed into the terminal; wait until it has finished
from terminal import focus_terminal, run
focus_terminal()
run("dbt run", process="dbt run")
