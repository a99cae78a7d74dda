# A "Total" row of the monthly sales (SalesRep.xlsx) and a "Lines Only" line chart of it over
# the months, titled "Total", without a legend.
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("SalesRep.xlsx - LibreOffice Calc")

# %% "Total" under the last sales rep, =SUM(B2:B<last>) filled right under every month
from calc_uno import document, extent, fill, last_row, letter, put, sheet
doc = document("SalesRep.xlsx")
sh = sheet(doc, "Sheet1")
columns, rows = extent(sh)[0], last_row(sh, "A")
put(sh, f"A{rows + 1}", "Total")
fill(sh, f"B{rows + 1}:{letter(columns - 1)}{rows + 1}", f"=SUM(B2:B{rows})")

# %% a line chart (lines only) of the totals with the months on the x axis, titled "Total", no legend
from calc_uno import chart, document, extent, last_row, letter, sheet
doc = document("SalesRep.xlsx")
sh = sheet(doc, "Sheet1")
last, total = letter(extent(sh)[0] - 1), last_row(sh, "A")
chart(doc, sh, "Total", [f"B1:{last}1", f"B{total}:{last}{total}"], kind="line", title="Total", legend=False,
      series_in_rows=True, first_column_labels=False)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SalesRep.xlsx"))
