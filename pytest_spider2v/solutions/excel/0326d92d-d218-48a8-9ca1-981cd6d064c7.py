# A "Total" row under the sales (SalesRep.xlsx) shown as a bar chart titled "Total", then a
# "Growth" row, (this month - last month) / last month as a decimal, shown as a line chart titled
# "Growth"; neither chart has a legend.
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

# %% a bar chart of the totals over the month names (series in rows, first row as labels),
# titled "Total", no legend
from calc_uno import chart, document, extent, last_row, letter, sheet
doc = document("SalesRep.xlsx")
sh = sheet(doc, "Sheet1")
last, total = letter(extent(sh)[0] - 1), last_row(sh, "A")
chart(doc, sh, "Total", [f"B1:{last}1", f"B{total}:{last}{total}"], kind="bar", horizontal=True, title="Total",
      legend=False, series_in_rows=True, first_column_labels=False)

# %% "Growth" under the totals: =(C<total>-B<total>)/B<total> from the second month on
from calc_uno import document, extent, fill, last_row, letter, put, sheet
doc = document("SalesRep.xlsx")
sh = sheet(doc, "Sheet1")
last, total = letter(extent(sh)[0] - 1), last_row(sh, "A")
put(sh, f"A{total + 1}", "Growth")
fill(sh, f"C{total + 1}:{last}{total + 1}", f"=(C{total}-B{total})/B{total}")

# %% a line chart of the growth rates over their month names, titled "Growth", no legend
from calc_uno import chart, document, extent, last_row, letter, sheet
doc = document("SalesRep.xlsx")
sh = sheet(doc, "Sheet1")
last, growth = letter(extent(sh)[0] - 1), last_row(sh, "A")
chart(doc, sh, "Growth", [f"C1:{last}1", f"C{growth}:{last}{growth}"], kind="line", title="Growth", legend=False,
      series_in_rows=True, first_column_labels=False, at=(10000, 11000))

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("SalesRep.xlsx"))
