# Materialize the two example models of ~/projects/materialize_test as tables, then run them. The
# folder's models are views by dbt_project.yml, and my_first_dbt_model also says so in its own
# config() block, which wins over the project file: both must say table.
# %% the models/test folder is materialized as tables (dbt_project.yml)
from dbt_cli import edit, project
edit(project("materialize_test") / "dbt_project.yml", "+materialized: view", "+materialized: table")

# %% my_first_dbt_model's own config() says table too
from dbt_cli import edit, project
edit(project("materialize_test") / "models/test/my_first_dbt_model.sql",
     "{{ config(materialized='view') }}", "{{ config(materialized='table') }}")

# %% dbt run
from dbt_cli import dbt, project
dbt(project("materialize_test"), "run")
