# In the open Dagster project ~/harry-potter-potions, add a test function "test_potions_assets"
# (to harry_potter_potions_tests/test_assets.py, the file open in the editor): it materializes
# the project's assets (all_potions, count_advanced_difficulty_potions), asserts that the run
# succeeded and that the count of potions of advanced difficulty is exactly 14.
# %% write the test into harry_potter_potions_tests/test_assets.py
from pathlib import Path
from dbt_cli import write
write(Path("/home/user/harry-potter-potions/harry_potter_potions_tests/test_assets.py"), """
    from dagster import materialize

    from harry_potter_potions.assets import all_potions, count_advanced_difficulty_potions


    def test_potions_assets():
        result = materialize([all_potions, count_advanced_difficulty_potions])
        assert result.success
        assert result.output_for_node("count_advanced_difficulty_potions") == 14
""")

# %% in the terminal (in the project folder): run the tests and wait until pytest has finished
from terminal import focus_terminal, run
focus_terminal()
run("pytest harry_potter_potions_tests", process="pytest harry_potter_potions_tests")

# %%
DONE
