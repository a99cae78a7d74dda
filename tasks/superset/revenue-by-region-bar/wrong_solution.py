# Wrong on purpose: uses the average revenue (AVG) instead of the total (SUM)
# %% based-on: solution.py
# %% replace 2: open Explore on orders (dataset id 1) as a bar chart: x-axis region, metric AVG(revenue)
from superset_ui import explore
explore('{"datasource":"1__table","viz_type":"echarts_timeseries_bar","x_axis":"region","metrics":[{"expressionType":"SIMPLE",'
        '"column":{"column_name":"revenue"},"aggregate":"AVG","label":"AVG(revenue)"}]}')
