# Wrong on purpose: the pie chart sums the return ids (SUM(return_id)) instead of the refunds
# %% based-on: solution.py
# %% replace 5: Explore on the new dataset (id 3) as a pie chart: dimension reason, metric SUM(return_id)
from superset_ui import explore
explore('{"datasource":"3__table","viz_type":"pie","groupby":["reason"],"metric":{"expressionType":"SIMPLE",'
        '"column":{"column_name":"return_id"},"aggregate":"SUM","label":"SUM(return_id)"}}')
