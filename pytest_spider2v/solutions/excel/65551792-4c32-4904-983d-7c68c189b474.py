# The instruction alone: the steps of the verbose twin d6238948, with Gross Profit as it is
# defined, net sales less the cost of goods sold (sales less returns and discounts, less
# materials, labor and overhead), since this instruction states no formula. The check expects the twin's
# tutorial formula instead (returns and discounts added), so this scores 0: the task is on the
# errata list (abstract_unsolvable), and --validate expects exactly that.
# %% based-on: d6238948-e0b1-4ab2-b0be-270bad150a4c.py
# %% replace 2: Gross Profit: sales less returns and discounts, less the three cost columns, filled down
from calc_uno import column_of, document, fill, last_row, sheet
sh = sheet(document("IncomeStatement2.xlsx"), "Sheet1")
col = {name: column_of(sh, name) for name in ("Sales", "Sales Return", "Discounts and Allowances",
                                               "Materials Charges", "Labor Charges", "Overhead", "Gross Profit")}
minus = "-".join(f"{col[name]}2" for name in ("Sales Return", "Discounts and Allowances", "Materials Charges",
                                              "Labor Charges", "Overhead"))
fill(sh, f"{col['Gross Profit']}2:{col['Gross Profit']}{last_row(sh, 'A')}", f"={col['Sales']}2-{minus}")
