# %% focus Chromium
from desktop import focus
focus("Chromium", settle=0.5)

# %% chart 1 in Explore: bar chart on orders (dataset id 1), x-axis region, metric COUNT(*)
from superset_ui import explore
explore('{"datasource":"1__table","viz_type":"echarts_timeseries_bar","x_axis":"region","metrics":["count"]}')

# %% save it as "Orders per Region" on a new dashboard "Regional Sales Overview"
from superset_ui import save_chart
save_chart("Orders per Region", "Regional Sales Overview", new_dashboard=True)

# %% chart 2 in Explore: pie chart, dimension region, metric SUM(quantity)
from superset_ui import explore
explore('{"datasource":"1__table","viz_type":"pie","groupby":["region"],"metric":{"expressionType":"SIMPLE",'
        '"column":{"column_name":"quantity"},"aggregate":"SUM","label":"SUM(quantity)"}}')

# %% save it as "Quantity Share by Region" on the same (now existing) dashboard
from superset_ui import save_chart
save_chart("Quantity Share by Region", "Regional Sales Overview")

# %%
DONE
