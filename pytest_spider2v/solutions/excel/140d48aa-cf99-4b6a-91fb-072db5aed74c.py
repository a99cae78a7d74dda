# A "Week Sales COGS Summary" column reading "Week: <Week>, Sales: <Sales>, COGS: <COGS>" for every
# row (WeeklySales.xlsx), built from the header cells and each row's values with "&".
# %% once Calc shows the workbook, let it accept UNO connections (the workbook stays open in its window)
from calc_uno import listen
listen("WeeklySales.xlsx - LibreOffice Calc")

# %% the header in the first free column, then the concatenation filled down to the last week
from calc_uno import column_of, document, extent, fill, last_row, letter, put, sheet
sh = sheet(document("WeeklySales.xlsx"), "Sheet1")
parts = [column_of(sh, name) for name in ("Week", "Sales", "COGS")]
summary = letter(extent(sh)[0])
put(sh, f"{summary}1", "Week Sales COGS Summary")
formula = '&", "&'.join(f'${c}$1&": "&${c}2' for c in parts)
fill(sh, f"{summary}2:{summary}{last_row(sh, 'A')}", "=" + formula)

# %% save in the workbook's own format (xlsx), like Ctrl+S
from calc_uno import document, save
save(document("WeeklySales.xlsx"))
