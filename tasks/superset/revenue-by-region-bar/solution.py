# %% focus Chromium
from desktop import focus
focus("Chromium", settle=0.5)

# %% open Explore on orders (dataset id 1) as a bar chart: x-axis region, metric SUM(revenue)
from superset_ui import explore
explore('{"datasource":"1__table","viz_type":"echarts_timeseries_bar","x_axis":"region","metrics":[{"expressionType":"SIMPLE",'
        '"column":{"column_name":"revenue"},"aggregate":"SUM","label":"SUM(revenue)"}]}')

# %% Save: name the chart "Revenue by Region", no dashboard
from superset_ui import save_chart
save_chart("Revenue by Region")

# %%
DONE
