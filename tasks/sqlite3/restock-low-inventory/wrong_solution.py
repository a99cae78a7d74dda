# Wrong on purpose: restocks products at their reorder level too (qty <= reorder_level, not qty < reorder_level)
# %% based-on: solution.py
# %% replace 3: restock the products below their reorder level (written with ">": pyautogui types "<" as ">" here)
pyautogui.typewrite("UPDATE products SET qty = qty + 50 WHERE reorder_level >= qty;\n", interval=0.02)
