# Delete the notebook kernel shown as "Python (jupyterlab)": find the kernel spec with that
# display name, then remove it with `jupyter kernelspec remove` in the open terminal.
# %% the kernel's name from `jupyter kernelspec list --json`; remove it in the terminal, answering yes
import json
import subprocess
specs = json.loads(subprocess.run(["jupyter", "kernelspec", "list", "--json"], capture_output=True, text=True).stdout)
name = next(n for n, s in specs["kernelspecs"].items() if s["spec"]["display_name"] == "Python (jupyterlab)")
window = subprocess.run(["xdotool", "search", "--class", "gnome-terminal"], capture_output=True, text=True).stdout.split()
subprocess.run(["xdotool", "windowactivate", "--sync", window[-1]])
time.sleep(0.5)
pyautogui.typewrite(f"jupyter kernelspec remove -y {name}\n", interval=0.02)
for _ in range(50):
    time.sleep(0.2)
    if name not in subprocess.run(["jupyter", "kernelspec", "list"], capture_output=True, text=True).stdout.split():
        break

# %%
DONE
