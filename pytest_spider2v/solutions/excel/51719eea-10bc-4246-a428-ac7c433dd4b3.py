# A "Revenue" column (retail price looked up in the "Retail Price" sheet x quantity x (1 -
# discount)), then a pivot table in a new sheet "Sheet2" summing the revenue of each product
# (BoomerangSales.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("BoomerangSales.xlsx - LibreOffice Calc")

# %% "Revenue" in the first free column: =VLOOKUP(product; price table; 2; 0)*quantity*(1-discount)
from calc_uno import column_of, document, extent, fill, last_row, letter, put, sheet
doc = document("BoomerangSales.xlsx")
sh, prices = sheet(doc, "Sheet1"), sheet(doc, "Retail Price")
product, quantity, discount = column_of(sh, "Product"), column_of(sh, "Quantity"), column_of(sh, "Discount")
revenue, rows = letter(extent(sh)[0]), last_row(sh, "A")
name, price, price_rows = column_of(prices, "Product"), column_of(prices, "Retail Price"), last_row(prices, "A")
table = f"$'Retail Price'.${name}$2:${price}${price_rows}"
put(sh, f"{revenue}1", "Revenue")
fill(sh, f"{revenue}2:{revenue}{rows}", f"=VLOOKUP({product}2;{table};2;0)*{quantity}2*(1-{discount}2)")

# %% new sheet Sheet2; a pivot table over Product..Revenue: rows Product, data Sum of Revenue
from calc_uno import add_sheet, column_of, document, extent, letter, pivot_table, sheet
doc = document("BoomerangSales.xlsx")
data = sheet(doc, "Sheet1")
columns, rows = extent(data)
out = add_sheet(doc, "Sheet2")
pivot_table(data, f"{column_of(data, 'Product')}1:{letter(columns - 1)}{rows}", out, "A1", rows=["Product"],
            data=[("Revenue", "SUM")])

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("BoomerangSales.xlsx"))
