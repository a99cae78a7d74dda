# %% focus the workbook window once Calc shows it, and let Calc settle
from desktop import focus
focus("store_sales.xlsx - LibreOffice Calc", settle=2, whole=True)

# %% Sheet > Insert Sheet at End... (the tenth item of the Sheet menu), wait for its dialog
from desktop import menu, wait_window
menu("s", 9)
wait_window("Append Sheet", timeout=10)
time.sleep(0.5)

# %% name the new sheet "Summary" and confirm; Calc switches to it
pyautogui.hotkey("ctrl", "a")
pyautogui.typewrite("Summary\n", interval=0.05)
time.sleep(1.5)

# %% headers in A1:B1 (Tab moves right, Enter returns to column A)
from desktop import name_box
name_box("A1")
pyautogui.typewrite("Region\tTotal Amount\n", interval=0.03)

# %% one SUMIF row per region, over the Sales sheet's rows 2 to 25
regions = ["North", "South", "East", "West"]
for row, region in enumerate(regions, start=2):
    pyautogui.typewrite(f"{region}\t=SUMIF($Sales.$B$2:$B$25;A{row};$Sales.$D$2:$D$25)\n", interval=0.03)

# %% save in the current (xlsx) format
pyautogui.hotkey("ctrl", "s")
time.sleep(2)

# %%
DONE
