# %% focus the workbook window once Calc shows it, and let Calc settle
from desktop import focus
focus("exam_results.xlsx - LibreOffice Calc", settle=2, whole=True)

# %% go to F2, the first Total value, through the Name Box (Ctrl+Shift+F5)
from desktop import name_box
name_box("F2")

# %% Data > Sort Descending (the third item of the Data menu)
from desktop import menu
menu("d", 2)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
