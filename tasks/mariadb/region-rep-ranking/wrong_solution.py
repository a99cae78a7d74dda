# Wrong on purpose: ranks with DENSE_RANK(), so the rep after a tie gets rank 3 instead of 4
# %% based-on: solution.py
# %% replace 3: create the ranking table from the won deals
pyautogui.typewrite(
    "CREATE TABLE rep_ranking AS SELECT region, rep, won_amount, won_deals, "
    "DENSE_RANK() OVER (PARTITION BY region ORDER BY won_amount DESC) AS region_rank FROM "
    "(SELECT region, rep, SUM(amount) AS won_amount, COUNT(*) AS won_deals FROM deals "
    "WHERE stage = 'won' GROUP BY region, rep) AS t;\n",
    interval=0.01,
)
time.sleep(1)
