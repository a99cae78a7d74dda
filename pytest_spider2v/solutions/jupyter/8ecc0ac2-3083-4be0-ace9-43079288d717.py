# Run every cell of the notebook open in JupyterLab (~/Downloads/sports-products.ipynb) and
# save it: the command palette's "Run All Cells", then Ctrl+S once the kernel is idle again.
# %% focus JupyterLab and click into the notebook
import subprocess
for _ in range(150):
    if "JupyterLab" in subprocess.run(["wmctrl", "-l"], capture_output=True, text=True).stdout:
        break
    time.sleep(0.2)
subprocess.run(["wmctrl", "-a", "JupyterLab"])
time.sleep(1)
width, height = pyautogui.size()
pyautogui.click(width // 2, height // 2)
time.sleep(0.5)

# %% Run > Run All Cells, through the command palette
pyautogui.press("esc")
pyautogui.hotkey("ctrl", "shift", "c")
time.sleep(1)
pyautogui.typewrite("Run All Cells", interval=0.03)
time.sleep(1)
pyautogui.press("enter")

# %% wait until the kernel is idle and every code cell ran, saving (Ctrl+S) each time round
import json
import urllib.request
for _ in range(120):
    time.sleep(2)
    kernels = json.load(urllib.request.urlopen("http://localhost:8888/api/kernels"))
    if kernels and all(k["execution_state"] == "idle" for k in kernels):
        pyautogui.hotkey("ctrl", "s")
        time.sleep(1.5)
        cells = json.load(open("/home/user/Downloads/sports-products.ipynb"))["cells"]
        if all(c.get("execution_count") for c in cells if c["cell_type"] == "code" and "".join(c["source"]).strip()):
            break

# %%
DONE
