# A new sheet headed "Demographic Profile" (A1:C1 merged, blue #0000ff fill, bold white text), then
# three pivot tables stacked under it with a blank row between them, each counting one of Sex,
# Civil Status and Highest Educational Attainment and showing the counts as a percentage of the
# total (DemographicProfile.xlsx).
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("DemographicProfile.xlsx - LibreOffice Calc")

# %% new sheet Sheet2; A1:C1 merged with "Demographic Profile", fill #0000FF, font white and bold
from calc_uno import add_sheet, document, merge, style
out = add_sheet(document("DemographicProfile.xlsx"), "Sheet2")
merge(out, "A1:C1", "Demographic Profile")
style(out, "A1:C1", CellBackColor=0x0000FF, CharColor=0xFFFFFF, CharWeight=150.0)

# %% one pivot table per column (row field and counted data field, as % of the total), the first
# at A2, each next one a blank row below the previous
from calc_uno import column_of, document, last_row, pivot_table, sheet
doc = document("DemographicProfile.xlsx")
data, out = sheet(doc, "Sheet1"), sheet(doc, "Sheet2")
at = 2
for field in ("Sex", "Civil Status", "Highest Educational Attainment"):
    c = column_of(data, field)
    table = pivot_table(data, f"{c}1:{c}{last_row(data, c)}", out, f"A{at}", rows=[field],
                        data=[(field, "COUNT", "COLUMN_PERCENTAGE")])
    at = table.OutputRange.EndRow + 3  # EndRow counts from 0: its row, a blank one, the next

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("DemographicProfile.xlsx"))
