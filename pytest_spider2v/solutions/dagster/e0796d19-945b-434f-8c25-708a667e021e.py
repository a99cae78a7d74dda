# The abstract variant of d245d228 (add the test function test_potions_assets): the same steps as
# its twin's solution, which use only what this instruction names.
# %% based-on: d245d228-fb5b-44b7-82d3-e2cee3736825.py
