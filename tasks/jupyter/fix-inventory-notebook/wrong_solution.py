# Wrong on purpose: fixes only the KeyError and leaves total_value undefined, so the last cell still fails
# %% based-on: solution.py
# %% drop 4: total_value stays undefined

# %% replace 6: save (Ctrl+S) until the saved notebook has the output of the reorder cell
import json
def done():
    cells = json.load(open("/home/user/inventory_report.ipynb"))["cells"]
    return "Reorder" in json.dumps(cells[-2].get("outputs", []))
for _ in range(30):
    pyautogui.hotkey("ctrl", "s")
    time.sleep(0.7)
    if done():
        break
