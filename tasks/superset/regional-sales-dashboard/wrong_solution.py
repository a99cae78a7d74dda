# Wrong on purpose: the pie chart sums the revenue instead of the quantity
# %% based-on: solution.py
# %% replace 4: chart 2 in Explore: pie chart, dimension region, metric SUM(revenue)
from superset_ui import explore
explore('{"datasource":"1__table","viz_type":"pie","groupby":["region"],"metric":{"expressionType":"SIMPLE",'
        '"column":{"column_name":"revenue"},"aggregate":"SUM","label":"SUM(revenue)"}}')
