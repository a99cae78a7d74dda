# Complete the #TODO parts of ~/Desktop/logistic_regression.ipynb (load data.csv as Exam1,
# Exam2, Admitted; the sigmoid; a leading "Ones" column; the logistic-regression gradient;
# predictions thresholded at 0.5), then run all cells and save the notebook.
# %% fill in each TODO where the notebook's comment or `return None` stands
import json
path = "/home/user/Desktop/logistic_regression.ipynb"
notebook = json.load(open(path))
fills = {
    "# TODO: Load data": "data = pd.read_csv(path, header=None, names=['Exam1', 'Exam2', 'Admitted'])",
    "# TODO: Add ones column": "data.insert(0, 'Ones', 1)",
}
returns = {
    "def sigmoid": "return 1 / (1 + np.exp(-z))",
    "def gradient": "return X.T @ (sigmoid(X @ theta.T) - Y) / len(X)",
    "def predict": "probability = sigmoid(X @ theta.T)\n    return [1 if p >= 0.5 else 0 for p in probability]",
}
for cell in notebook["cells"]:
    source = "".join(cell["source"])
    for todo, code in fills.items():
        if todo in source:
            source = source.rstrip("\n") + "\n" + code
    for definition, code in returns.items():
        if definition in source and "return None" in source:
            source = source.replace("return None", code)
    cell["source"] = source.splitlines(keepends=True)
with open(path, "w") as handle:
    json.dump(notebook, handle, indent=1)

# %% run all cells in the notebook's kernel and save the outputs
import subprocess
done = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace", "logistic_regression.ipynb"],
                      cwd="/home/user/Desktop", capture_output=True, text=True, timeout=600)
print(done.returncode, done.stderr[-500:])

# %%
DONE
