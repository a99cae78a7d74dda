# Put the code of every code cell of the open notebook numpy_problem.ipynb (Markdown cells left
# out) into a new file code_content.txt on the Desktop, one cell after the other.
# %% read the notebook's code cells and write them to ~/Desktop/code_content.txt
import json
cells = json.load(open("/home/user/Desktop/numpy_problem.ipynb"))["cells"]
code = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells if c["cell_type"] == "code"]
with open("/home/user/Desktop/code_content.txt", "w") as handle:
    handle.write("\n".join(code) + "\n")

# %%
DONE
