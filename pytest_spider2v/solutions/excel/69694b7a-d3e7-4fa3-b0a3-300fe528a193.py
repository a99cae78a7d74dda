# A "Revenue" column (retail price looked up in the "Retail Price" sheet x quantity x (1 -
# discount)); then a pivot table in a new sheet "Sheet2" counting the transactions of each web
# site, and a bar chart of it titled "Sales frequency by website" without a legend
# (BoomerangSales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("BoomerangSales.xlsx - LibreOffice Calc")

# %% "Revenue" in the first free column: =quantity*VLOOKUP(product; price table; 2; 0)*(1-discount)
from calc_uno import column_of, document, extent, fill, last_row, letter, put, sheet
doc = document("BoomerangSales.xlsx")
sh, prices = sheet(doc, "Sheet1"), sheet(doc, "Retail Price")
product, quantity, discount = column_of(sh, "Product"), column_of(sh, "Quantity"), column_of(sh, "Discount")
revenue, rows = letter(extent(sh)[0]), last_row(sh, "A")
name, price, price_rows = column_of(prices, "Product"), column_of(prices, "Retail Price"), last_row(prices, "A")
table = f"$'Retail Price'.${name}$2:${price}${price_rows}"
put(sh, f"{revenue}1", "Revenue")
fill(sh, f"{revenue}2:{revenue}{rows}", f"={quantity}2*VLOOKUP({product}2;{table};2;0)*(1-{discount}2)")

# %% a new sheet Sheet2 right after Sheet1 (where the pivot dialog puts a new sheet) with a pivot
# table of all the data at A1: rows Web Site, data Count of Web Site
from calc_uno import add_sheet, document, extent, letter, pivot_table, sheet
doc = document("BoomerangSales.xlsx")
data = sheet(doc, "Sheet1")
columns, rows = extent(data)
out = add_sheet(doc, "Sheet2", 1)
pivot_table(data, f"A1:{letter(columns - 1)}{rows}", out, "A1", rows=["Web Site"], data=[("Web Site", "COUNT")])

# %% Insert > Chart in the pivot table: "Bar" (horizontal), titled, legend off
from calc_uno import document, pivot_chart, sheet
sh = sheet(document("BoomerangSales.xlsx"), "Sheet2")
pivot_chart(sh, "Sales frequency by website", sh.DataPilotTables.getByIndex(0), kind="bar", horizontal=True,
            title="Sales frequency by website", legend=False)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("BoomerangSales.xlsx"))
