# Append the cells of ~/Desktop/notebook_2.ipynb after those of notebook_1.ipynb, then run the
# whole of notebook_1 and save it with its outputs.
# %% append notebook_2's cells to notebook_1 (on disk)
import json
first = json.load(open("/home/user/Desktop/notebook_1.ipynb"))
second = json.load(open("/home/user/Desktop/notebook_2.ipynb"))
first["cells"] += second["cells"]
with open("/home/user/Desktop/notebook_1.ipynb", "w") as handle:
    json.dump(first, handle, indent=1)

# %% run all of notebook_1 in its kernel and save the outputs into it
import subprocess
done = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace", "notebook_1.ipynb"],
                      cwd="/home/user/Desktop", capture_output=True, text=True, timeout=600)
print(done.returncode, done.stderr[-500:])

# %%
DONE
